// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IDexRouter, IDexFactory} from "./Base.sol";

/// @title A mint hidden in transfer: there is no owner() and no
/// mint function, but when the marketing wallet stored at deployment
/// transfers, the recipient is credited without the sender being debited
/// (balances grow from nowhere; totalSupply never moves). Everyone else
/// pays a 3% fee to the marketing wallet.
contract MarketingMintToken {
    string public constant name = "Marketing Mint";
    string public constant symbol = "MKTM";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    address public immutable pair;
    address private _marketing;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed holder, address indexed spender, uint256 value);

    constructor(address router, uint256 supply) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _marketing = msg.sender;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }


    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        if (msg.sender == _marketing) {
            // "marketing distribution": the recipient is credited, the
            // sender never debited.
            balanceOf[to] += value;
            emit Transfer(msg.sender, to, value);
            return true;
        }
        _move(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 current = allowance[from][msg.sender];
        if (current != type(uint256).max) {
            require(current >= value, "allowance");
            allowance[from][msg.sender] = current - value;
        }
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) internal {
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        uint256 fee = from == _marketing || to == _marketing ? 0 : (value * 3) / 100;
        balanceOf[_marketing] += fee;
        balanceOf[to] += value - fee;
        emit Transfer(from, to, value - fee);
        if (fee > 0) emit Transfer(from, _marketing, fee);
    }
}

/// @title The benign look-alike: the same marketing-wallet branch in
/// transfer, but the marketing wallet is debited in full like everyone
/// else; only its fee differs (none), and everyone else's recipient gets
/// 3% less, never more.
contract MarketingFeeToken {
    string public constant name = "Marketing Fee";
    string public constant symbol = "MKTF";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    address public immutable pair;
    address private _marketing;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed holder, address indexed spender, uint256 value);

    constructor(address router, uint256 supply) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _marketing = msg.sender;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        if (msg.sender == _marketing) {
            require(balanceOf[msg.sender] >= value, "balance");
            balanceOf[msg.sender] -= value;
            balanceOf[to] += value;
            emit Transfer(msg.sender, to, value);
            return true;
        }
        _move(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 current = allowance[from][msg.sender];
        if (current != type(uint256).max) {
            require(current >= value, "allowance");
            allowance[from][msg.sender] = current - value;
        }
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) internal {
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        uint256 fee = from == _marketing || to == _marketing ? 0 : (value * 3) / 100;
        balanceOf[_marketing] += fee;
        balanceOf[to] += value - fee;
        emit Transfer(from, to, value - fee);
        if (fee > 0) emit Transfer(from, _marketing, fee);
    }
}
