/** The contract's purchase requests (src/shared/rpc/purchase-requests.ts): payments/request-approvals.ts does the work. */
import type { RpcHandlers } from '../../shared/rpc';
import type { RequestApprovals } from '../payments/request-approvals';

export const purchaseRequestHandlers = (
  approvals: RequestApprovals,
): Pick<
  RpcHandlers,
  | 'purchaseRequest.create'
  | 'purchaseRequests.list'
  | 'purchaseRequest.get'
  | 'purchaseRequest.approve'
  | 'purchaseRequest.decline'
> => ({
  'purchaseRequest.create': (input) => approvals.create(input),
  'purchaseRequests.list': async ({ state }) => approvals.list(state),
  'purchaseRequest.get': async ({ id }) => approvals.get(id),
  'purchaseRequest.approve': (input) => approvals.approve(input),
  'purchaseRequest.decline': async ({ id }) => approvals.decline(id),
});
