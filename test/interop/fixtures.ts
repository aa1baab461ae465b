/**
 * Fixtures of the interoperability suite, in one module: Base Sepolia on anvil, a contract (ERC-1271) wallet,
 * the official x402 facilitator in-process, and the interop peer — a Shared Report Purchase API built with the
 * official x402 packages, in its 'stock' and 'extras' forms. See each file for the details.
 */
export {
  BASE_SEPOLIA_CHAIN_ID,
  BASE_SEPOLIA_NETWORK,
  BASE_SEPOLIA_USDC,
  BASE_SEPOLIA_USDC_DOMAIN,
  MULTICALL3_ADDRESS,
  anvilTestAccount,
  startBaseSepolia,
  usdcAbi,
  type AnvilTestAccount,
  type BaseSepolia,
  type BaseSepoliaAccounts,
  type BaseSepoliaOptions,
} from './base-sepolia';
export {
  ERC1271_MAGIC_VALUE,
  contractWalletSignature,
  contractWalletSigner,
  deployContractWallet,
  wrapOwnerSignature,
  type TypedDataToSign,
} from './contract-wallet';
export { inProcessFacilitator, type InProcessFacilitator } from './facilitator';
export { PEER_HANDLES, peerShelf, readReportsQuery, type PeerRefusal, type PeerSelection } from './peer-data';
export { LEGACY_PAYMENT_HEADERS } from './peer-extras';
export {
  PAYMENT_HEADER_NAMES,
  startInteropPeer,
  type InteropPeer,
  type InteropPeerOptions,
  type PeerForm,
  type PeerRequest,
} from './peer';
export { officialBuyer, type OfficialBuyer, type SpendControls } from './official-client';
