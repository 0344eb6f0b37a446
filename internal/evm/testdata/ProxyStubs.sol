// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

// DelegatingStub forwards every call to the address in the EIP-1967
// implementation slot (state is preset by genesis alloc in the tests).
contract DelegatingStub {
    fallback() external payable {
        assembly {
            let impl := sload(0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc)
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), impl, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok case 0 { revert(0, returndatasize()) } default { return(0, returndatasize()) }
        }
    }
}

// BeaconStub answers implementation() from slot 0.
contract BeaconStub {
    address public implementation;
}

// AdminStub answers owner() from slot 0, like a ProxyAdmin.
contract AdminStub {
    address public owner;
}
