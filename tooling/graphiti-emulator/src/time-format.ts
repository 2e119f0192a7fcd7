// Graphiti's JSON carries Python's `datetime.isoformat()` of UTC datetimes:
// `2025-06-08T11:58:10.431000+00:00`, and no fraction at all when it is zero.

/** Formats epoch milliseconds the way Python's `isoformat()` writes a UTC datetime. */
export function toPythonIsoFormat(epochMilliseconds: number): string {
  const iso = new Date(epochMilliseconds).toISOString(); // 2025-06-08T11:58:10.431Z
  const seconds = iso.slice(0, 19);
  const milliseconds = iso.slice(20, 23);
  const fraction = milliseconds === '000' ? '' : `.${milliseconds}000`;
  return `${seconds}${fraction}+00:00`;
}
