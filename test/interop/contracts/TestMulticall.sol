// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title TestMulticall
/// @notice The one Multicall3 entry point the x402 EVM facilitator reads through (tryAggregate), so that on an
/// anvil chain it can diagnose a failed payment (balance, token name and version, nonce state) as it does on
/// Base Sepolia, where Multicall3 lives at 0xcA11bde05977b3631167028862bE2a173976CA11. The tests copy this
/// contract's runtime code to that address. Read-only use: it forwards no value.
contract TestMulticall {
    struct Call {
        address target;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function tryAggregate(bool requireSuccess, Call[] calldata calls) external payable returns (Result[] memory results) {
        results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory returnData) = calls[i].target.call(calls[i].callData);
            if (requireSuccess) require(success, "TestMulticall: call failed");
            results[i] = Result(success, returnData);
        }
    }
}
