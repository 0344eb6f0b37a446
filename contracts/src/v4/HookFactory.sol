// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title Deploys a contract at a CREATE2 address, so a Uniswap V4 hook can
/// get an address whose low 14 bits are the permissions it implements (the
/// salt is mined off chain).
contract HookFactory {
    event Deployed(address indexed at, bytes32 salt);

    function deploy(bytes32 salt, bytes calldata initCode) external returns (address at) {
        bytes memory code = initCode;
        assembly {
            at := create2(0, add(code, 32), mload(code), salt)
        }
        require(at != address(0), "HookFactory: create2 failed");
        emit Deployed(at, salt);
    }
}
