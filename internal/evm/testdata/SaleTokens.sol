// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "PowerTokens.sol";

// PricedSaleToken buys its own tokens back for ether at a price the owner
// sets: set to zero, holders who sell hand their tokens over for nothing
// (the two-step seizure of the "advanced token" copies).
contract PricedSaleToken is PowerBase {
    uint256 public sellPrice = 1e9;
    uint256 public buyPrice = 1e9;

    constructor(address factory, address weth) PowerBase(factory, weth) {}

    function setPrices(uint256 newSell, uint256 newBuy) external onlyOwner {
        sellPrice = newSell;
        buyPrice = newBuy;
    }

    function sell(uint256 amount) external {
        balanceOf[msg.sender] -= amount;
        balanceOf[address(this)] += amount;
        payable(msg.sender).transfer(amount * sellPrice);
    }

    receive() external payable {}
}

// FixedSaleToken buys its tokens back at a price fixed in the code: no
// one can change what a seller receives.
contract FixedSaleToken is PowerBase {
    uint256 private constant PRICE = 1e9;

    constructor(address factory, address weth) PowerBase(factory, weth) {}

    function sell(uint256 amount) external {
        balanceOf[msg.sender] -= amount;
        balanceOf[address(this)] += amount;
        payable(msg.sender).transfer(amount * PRICE);
    }

    function setTreasury(uint256 v) external onlyOwner {
        treasury = v;
    }

    uint256 public treasury;

    receive() external payable {}
}

// StockToken lets the owner "recover" any token the contract holds,
// its own included: the tokens holders sent to the contract go to the
// owner.
contract StockToken is PowerBase {
    constructor(address factory, address weth) PowerBase(factory, weth) {}

    function recover(address token, uint256 amount) external onlyOwner {
        PowerBase(token).transfer(owner, amount);
    }
}

// ForeignOnlyStockToken recovers other tokens only: its own stay where
// holders sent them.
contract ForeignOnlyStockToken is PowerBase {
    constructor(address factory, address weth) PowerBase(factory, weth) {}

    function recover(address token, uint256 amount) external onlyOwner {
        require(token != address(this), "own token");
        PowerBase(token).transfer(owner, amount);
    }
}

// PricedStockToken sells the tokens the contract holds at a price the
// owner sets: priced at one wei, the owner buys them all.
contract PricedStockToken is PowerBase {
    uint256 public buyPrice = 1e9;

    constructor(address factory, address weth) PowerBase(factory, weth) {}

    function setBuyPrice(uint256 p) external onlyOwner {
        buyPrice = p;
    }

    function buy() external payable {
        uint256 amount = msg.value / buyPrice;
        balanceOf[address(this)] -= amount;
        balanceOf[msg.sender] += amount;
    }
}
