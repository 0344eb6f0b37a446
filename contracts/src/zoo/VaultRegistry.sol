// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title Not a token: a registry of named vaults with a native-coin tip jar.
/// It has no totalSupply, balanceOf or transfer.
contract VaultRegistry {
    address public keeper;
    mapping(bytes32 => address) public vaults;
    bytes32[] public vaultNames;

    event VaultRegistered(bytes32 indexed name, address vault);

    constructor() {
        keeper = msg.sender;
    }

    receive() external payable {}

    function register(bytes32 vaultName, address vault) external {
        require(msg.sender == keeper, "keeper only");
        if (vaults[vaultName] == address(0)) vaultNames.push(vaultName);
        vaults[vaultName] = vault;
        emit VaultRegistered(vaultName, vault);
    }

    function count() external view returns (uint256) {
        return vaultNames.length;
    }
}
