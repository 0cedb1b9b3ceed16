/**
 * The files that hold a Kea memfile lease database, in the order Kea itself loads them
 * (Memfile_LeaseMgr::loadLeasesFromFiles): `<file>.completed` if a cleanup (LFC) finished
 * but was not yet moved into place, otherwise `<file>.2` (the previous cleanup's output) and
 * `<file>.1` (the input of a cleanup), and always `<file>` itself. Later files win.
 *
 * Given a file that already carries one of those suffixes, only that file is read.
 */
export const keaLeaseFileSet = (path: string, exists: (path: string) => boolean): string[] => {
  if (/\.(1|2|completed)$/.test(path)) return [path];
  const before = exists(`${path}.completed`) ? [`${path}.completed`] : [`${path}.2`, `${path}.1`].filter(exists);
  return exists(path) ? [...before, path] : before;
};
