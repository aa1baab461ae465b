// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title TestSmartWallet
/// @notice A contract wallet for the interop tests: one owner EOA, and ERC-1271 signatures in a format that is
/// never 65 bytes, so an x402 facilitator settles its payments through the token's bytes-signature overload.
///
/// Signature format: abi.encode(uint8 ownerIndex, bytes ownerSignature), where ownerIndex is 0 (the one owner)
/// and ownerSignature is the owner's 65-byte ECDSA signature (r, s, v) over the hash itself, with no prefix: for
/// EIP-712 data, the owner's signTypedData of that data. Encoded, it is 192 bytes.
/// The wallet holds tokens like any address; it never sends transactions itself. Test use only.
contract TestSmartWallet {
    bytes4 private constant MAGIC_VALUE = 0x1626ba7e;
    bytes4 private constant INVALID = 0xffffffff;

    address public immutable owner;

    constructor(address owner_) {
        require(owner_ != address(0), "TestSmartWallet: owner is the zero address");
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length == 65) return INVALID;
        (uint8 ownerIndex, bytes memory ownerSignature) = abi.decode(signature, (uint8, bytes));
        if (ownerIndex != 0 || ownerSignature.length != 65) return INVALID;
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(ownerSignature, 0x20))
            s := mload(add(ownerSignature, 0x40))
            v := byte(0, mload(add(ownerSignature, 0x60)))
        }
        if (uint256(s) > 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0) return INVALID;
        if (v < 27) v += 27;
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? MAGIC_VALUE : INVALID;
    }
}
