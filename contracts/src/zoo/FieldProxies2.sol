// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

// is_proxy, other shapes (issue 18's field zoo): a beacon proxy, whose
// code comes from whatever a beacon's owner names, and a proxy that keeps
// its logic address at a slot of its own naming instead of a standard one.
// Both run UpgradeableToken (UpgradeableToken.sol) initialised in place.

/// @title The beacon: its owner names the implementation every proxy of
/// the beacon runs.
contract TokenBeacon {
    address public owner;
    address public implementation;

    event Upgraded(address indexed implementation);

    constructor(address impl) {
        owner = msg.sender;
        _set(impl);
    }

    function upgradeTo(address impl) external {
        require(msg.sender == owner, "beacon: owner");
        _set(impl);
    }

    function _set(address impl) private {
        require(impl.code.length > 0, "beacon: not a contract");
        implementation = impl;
        emit Upgraded(impl);
    }
}

/// @title An EIP-1967 beacon proxy: the beacon's address in the standard
/// beacon slot, every call delegated to the beacon's implementation().
contract BeaconTokenProxy {
    // bytes32(uint256(keccak256("eip1967.proxy.beacon")) - 1)
    bytes32 internal constant BEACON_SLOT = 0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50;

    event BeaconUpgraded(address indexed beacon);

    constructor(address beacon, bytes memory initData) payable {
        assembly {
            sstore(BEACON_SLOT, beacon)
        }
        emit BeaconUpgraded(beacon);
        if (initData.length > 0) {
            (bool ok, bytes memory ret) = TokenBeacon(beacon).implementation().delegatecall(initData);
            if (!ok) {
                assembly {
                    revert(add(ret, 32), mload(ret))
                }
            }
        }
    }

    fallback() external payable {
        address beacon;
        assembly {
            beacon := sload(BEACON_SLOT)
        }
        address impl = TokenBeacon(beacon).implementation();
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), impl, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 { revert(0, returndatasize()) }
            default { return(0, returndatasize()) }
        }
    }

    receive() external payable {}
}

/// @title A proxy with slots of its own: the logic address at
/// keccak256("vault.router.logic") and the controller at
/// keccak256("vault.router.controller"); the controller repoints it with
/// migrateLogic(address) (an inline check in the fallback, as a
/// transparent proxy does).
contract VaultRouterProxy {
    bytes32 internal constant LOGIC_SLOT = keccak256("vault.router.logic");
    bytes32 internal constant CONTROLLER_SLOT = keccak256("vault.router.controller");

    constructor(address logic, address controller, bytes memory initData) payable {
        bytes32 logicSlot = LOGIC_SLOT;
        bytes32 controllerSlot = CONTROLLER_SLOT;
        assembly {
            sstore(logicSlot, logic)
            sstore(controllerSlot, controller)
        }
        if (initData.length > 0) {
            (bool ok, bytes memory ret) = logic.delegatecall(initData);
            if (!ok) {
                assembly {
                    revert(add(ret, 32), mload(ret))
                }
            }
        }
    }

    fallback() external payable {
        bytes32 logicSlot = LOGIC_SLOT;
        bytes32 controllerSlot = CONTROLLER_SLOT;
        address logic;
        address controller;
        assembly {
            logic := sload(logicSlot)
            controller := sload(controllerSlot)
        }
        if (msg.sender == controller && msg.sig == bytes4(keccak256("migrateLogic(address)"))) {
            address next = abi.decode(msg.data[4:], (address));
            require(next.code.length > 0, "router: not a contract");
            assembly {
                sstore(logicSlot, next)
            }
            return;
        }
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), logic, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 { revert(0, returndatasize()) }
            default { return(0, returndatasize()) }
        }
    }

    receive() external payable {}
}
