/** Shelf and menus: the catalog service (src/core/catalog/) does the work; this is its face to the contract. */
import type { RpcHandlers } from '../../shared/rpc';
import type { CatalogService } from '../catalog/catalog-service';

export const catalogHandlers = (
  catalog: CatalogService,
): Pick<RpcHandlers, 'shelf.list' | 'shelf.summary' | 'shelf.page' | 'shelf.haystacks' | 'menu.get'> => ({
  'shelf.list': ({ refresh }) => catalog.shelf(refresh ?? false),
  'shelf.summary': ({ refresh, firstPage }) => catalog.summary(refresh ?? false, firstPage),
  'shelf.page': (input) => catalog.page(input),
  'shelf.haystacks': () => catalog.haystacks(),
  'menu.get': ({ handle }) => catalog.menu(handle),
});
