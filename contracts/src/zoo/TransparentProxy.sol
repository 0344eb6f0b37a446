// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title An EIP-1967 upgradeable proxy: the admin (an EOA) may point it at
/// any implementation; every other call is delegated.
contract TransparentProxy {
    // bytes32(uint256(keccak256("eip1967.proxy.implementation")) - 1)
    bytes32 internal constant IMPLEMENTATION_SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    // bytes32(uint256(keccak256("eip1967.proxy.admin")) - 1)
    bytes32 internal constant ADMIN_SLOT = 0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103;

    event Upgraded(address indexed implementation);
    event AdminChanged(address previousAdmin, address newAdmin);

    constructor(address implementation, address admin, bytes memory initData) payable {
        _setImplementation(implementation);
        _setAdmin(admin);
        if (initData.length > 0) {
            (bool ok, bytes memory ret) = implementation.delegatecall(initData);
            if (!ok) {
                assembly {
                    revert(add(ret, 32), mload(ret))
                }
            }
        }
    }

    fallback() external payable {
        if (msg.sender == _admin()) {
            if (msg.sig == bytes4(keccak256("upgradeTo(address)"))) {
                _setImplementation(abi.decode(msg.data[4:], (address)));
                return;
            }
            if (msg.sig == bytes4(keccak256("changeAdmin(address)"))) {
                _setAdmin(abi.decode(msg.data[4:], (address)));
                return;
            }
        }
        _delegate(_implementation());
    }

    receive() external payable {
        _delegate(_implementation());
    }

    function _delegate(address impl) private {
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), impl, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 { revert(0, returndatasize()) }
            default { return(0, returndatasize()) }
        }
    }

    function _implementation() private view returns (address impl) {
        bytes32 slot = IMPLEMENTATION_SLOT;
        assembly {
            impl := sload(slot)
        }
    }

    function _admin() private view returns (address adm) {
        bytes32 slot = ADMIN_SLOT;
        assembly {
            adm := sload(slot)
        }
    }

    function _setImplementation(address impl) private {
        require(impl.code.length > 0, "Proxy: implementation is not a contract");
        bytes32 slot = IMPLEMENTATION_SLOT;
        assembly {
            sstore(slot, impl)
        }
        emit Upgraded(impl);
    }

    function _setAdmin(address adm) private {
        address previous = _admin();
        bytes32 slot = ADMIN_SLOT;
        assembly {
            sstore(slot, adm)
        }
        emit AdminChanged(previous, adm);
    }
}
