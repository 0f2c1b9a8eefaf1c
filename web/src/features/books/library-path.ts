/**
 * A file's path as a card shows it: below the catalogue's library folder (BookResults), so that it
 * reads from the author's folder down; the whole path when it lies elsewhere or there is no folder.
 */
export function pathBelowLibrary(path: string, libraryFolder: string): string {
  if (libraryFolder === '' || !path.startsWith(libraryFolder)) return path;
  const separator = path[libraryFolder.length];
  return separator === '/' || separator === '\\' ? path.slice(libraryFolder.length + 1) : path;
}
