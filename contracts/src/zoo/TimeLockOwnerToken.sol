// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "./Base.sol";

/// @title can_take_back_ownership through lock/unlock: lock(seconds) clears
/// owner() and remembers the previous owner, who can unlock() after the
/// time and be owner again. The owner can also raise the sell fee. At
/// launch it is still owned (not yet "renounced").
contract TimeLockOwnerToken is ERC20 {
    address private _owner;
    address private _previousOwner;
    uint256 private _lockTime;
    uint256 public sellFeeBps;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor(uint256 supply) ERC20("Time Lock Owner", "TLO") {
        _owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
        _mint(msg.sender, supply);
    }

    modifier onlyOwner() {
        require(_owner == msg.sender, "Ownable: caller is not the owner");
        _;
    }

    function owner() public view returns (address) {
        return _owner;
    }

    function renounceOwnership() external onlyOwner {
        emit OwnershipTransferred(_owner, address(0));
        _owner = address(0);
    }

    function lock(uint256 time) external onlyOwner {
        _previousOwner = _owner;
        _owner = address(0);
        _lockTime = block.timestamp + time;
        emit OwnershipTransferred(_previousOwner, address(0));
    }

    function unlock() external {
        require(_previousOwner == msg.sender, "no permission to unlock");
        require(block.timestamp > _lockTime, "still locked");
        emit OwnershipTransferred(_owner, _previousOwner);
        _owner = _previousOwner;
    }

    function setSellFee(uint256 bps) external onlyOwner {
        require(bps <= 2_500, "fee");
        sellFeeBps = bps;
    }
}
