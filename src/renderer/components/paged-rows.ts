/**
 * Long lists whose rows come from core a page at a time, the page asked for by its place: which pages a
 * view touches, and the row at an index once its page has come. The Shelf and the Library table share it.
 */

/** The pages past the first that rows `first` to `last` touch, and the page of row `also` if given. */
export function pagesTouched(pageSize: number, first: number, last: number, also?: number): number[] {
  const pages: number[] = [];
  for (let page = Math.max(1, Math.floor(first / pageSize)); page <= Math.floor(last / pageSize); page++)
    pages.push(page);
  const alsoPage = also === undefined ? 0 : Math.floor(also / pageSize);
  if (alsoPage > 0 && !pages.includes(alsoPage)) pages.push(alsoPage);
  return pages;
}

/** The row at an index, from the pages come so far (page number to its rows); undefined until its page has. */
export function rowFromPages<T>(pageSize: number, loaded: ReadonlyMap<number, T[]>) {
  return (index: number): T | undefined => loaded.get(Math.floor(index / pageSize))?.[index % pageSize];
}
