export const LEASE_FILE_FORMATS = ['isc', 'kea'] as const;
export type LeaseFileFormat = (typeof LEASE_FILE_FORMATS)[number];

/**
 * Tells the two formats apart from the first line that says anything: a Kea lease file
 * opens with its CSV header (an `address` column and an `hwaddr` or `duid` one); anything
 * else is read as dhcpd.leases, whose parser reports what it cannot read.
 */
export const detectLeaseFileFormat = (firstLines: string[]): LeaseFileFormat => {
  const first = firstLines.map((line) => line.trim()).find((line) => line !== '');
  const columns = first?.includes(',') ? first.split(',').map((name) => name.trim()) : [];
  return columns.includes('address') && (columns.includes('hwaddr') || columns.includes('duid')) ? 'kea' : 'isc';
};
