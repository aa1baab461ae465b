/** Shelf and menus: the catalog service (src/core/catalog/) does the work; this is its face to the contract. */
import type { RpcHandlers } from '../../shared/rpc';
import type { DeskContext } from '../desk/context';

export const catalogHandlers = (
  ctx: DeskContext,
): Pick<RpcHandlers, 'shelf.list' | 'shelf.summary' | 'shelf.page' | 'shelf.haystacks' | 'menu.get'> => ({
  'shelf.list': ({ refresh }) => ctx.catalogService.shelf(refresh ?? false),
  'shelf.summary': ({ refresh, firstPage }) => ctx.catalogService.summary(refresh ?? false, firstPage),
  'shelf.page': (input) => ctx.catalogService.page(input),
  'shelf.haystacks': () => ctx.catalogService.haystacks(),
  'menu.get': ({ handle }) => ctx.catalogService.menu(handle),
});
