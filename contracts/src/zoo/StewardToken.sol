// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "./Base.sol";

/// @title can_take_back_ownership, another shape: no Ownable, an owner
/// slot with inline checks, and every owner that ever renounced kept in
/// an array of "stewards"; syncGovernance(i) lets steward i become owner
/// again. Still owned at launch.
contract StewardToken is ERC20 {
    address public owner;
    address[] private _stewards;
    uint256 public maxWallet;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor(uint256 supply) ERC20("Steward", "STEW") {
        owner = msg.sender;
        maxWallet = supply;
        _mint(msg.sender, supply);
        emit OwnershipTransferred(address(0), msg.sender);
    }

    function renounceOwnership() external {
        require(msg.sender == owner, "not owner");
        _stewards.push(msg.sender);
        emit OwnershipTransferred(msg.sender, address(0));
        owner = address(0);
    }

    function syncGovernance(uint256 index) external {
        require(index < _stewards.length && _stewards[index] == msg.sender, "not a steward");
        emit OwnershipTransferred(owner, msg.sender);
        owner = msg.sender;
    }

    function setMaxWallet(uint256 amount) external {
        require(msg.sender == owner, "not owner");
        maxWallet = amount;
    }
}
