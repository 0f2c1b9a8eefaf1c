const SIZE_UNITS = ['bytes', 'kB', 'MB', 'GB'];

/** A file's size as people read it, in powers of 1000 as e-readers and mail services count: "49.8 kB", "1.2 MB". */
export function fileSize(bytes: number): string {
  let size = bytes;
  let unit = 0;
  while (size >= 1000 && unit < SIZE_UNITS.length - 1) {
    size /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? size : size.toFixed(1)} ${SIZE_UNITS[unit]}`;
}
