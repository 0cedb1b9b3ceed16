/** A file that is not a lease file at all (binary, garbage, corrupt gzip): the import stops and says so (exit 2). */
export class NotALeaseFile extends Error {
  override readonly name = 'NotALeaseFile';
}
