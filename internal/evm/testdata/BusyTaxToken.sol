// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IBusyPair {
    function token0() external view returns (address);
    function getReserves() external view returns (uint112, uint112, uint32);
    function swap(uint256, uint256, address, bytes calldata) external;
}

interface IBusyFactory {
    function createPair(address, address) external returns (address);
}

// BusyTaxToken is an owned tax token with many harmless owner functions a
// prober could misread: an airdrop from the owner's balance, a fee-swap
// threshold (its fee swaps sell into the pair during sells), a marketing
// wallet setter, a rescue function and a swap toggle. Its 3% sell tax is
// fixed. The probes must prove none of its functions privileged.
contract BusyTaxToken {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply = 1e27;
    address public owner;
    address public pair;
    address public weth;
    address public marketingWallet;
    uint256 public swapThreshold = 1e27;
    bool public swapEnabled = true;
    bool private inSwap;

    constructor(address factory, address weth_) {
        owner = msg.sender;
        weth = weth_;
        marketingWallet = msg.sender;
        pair = IBusyFactory(factory).createPair(address(this), weth_);
        balanceOf[address(this)] = 1e24; // fees already collected
        balanceOf[msg.sender] = totalSupply - 1e24;
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "not owner");
        _;
    }

    function airdrop(address[] calldata to, uint256[] calldata amounts) external onlyOwner {
        for (uint256 i = 0; i < to.length && i < amounts.length; i++) _move(msg.sender, to[i], amounts[i]);
    }

    function setSwapThreshold(uint256 v) external onlyOwner { swapThreshold = v; }
    function setMarketingWallet(address w) external onlyOwner { marketingWallet = w; }
    function setSwapEnabled(bool on) external onlyOwner { swapEnabled = on; }
    function rescueETH() external onlyOwner { payable(owner).transfer(address(this).balance); }

    function approve(address s, uint256 v) external returns (bool) { allowance[msg.sender][s] = v; return true; }
    function transfer(address to, uint256 v) external returns (bool) { _transfer(msg.sender, to, v); return true; }
    function transferFrom(address f, address to, uint256 v) external returns (bool) {
        allowance[f][msg.sender] -= v;
        _transfer(f, to, v);
        return true;
    }

    function _transfer(address from, address to, uint256 v) internal {
        if (to == pair && from != owner && !inSwap) {
            if (swapEnabled && balanceOf[address(this)] >= swapThreshold) _swapFees();
            uint256 fee = v * 3 / 100;
            _move(from, address(this), fee);
            v -= fee;
        }
        _move(from, to, v);
    }

    // Sells the collected fees into the pair for WETH sent to marketing.
    function _swapFees() private {
        inSwap = true;
        uint256 amount = balanceOf[address(this)];
        (uint112 r0, uint112 r1,) = IBusyPair(pair).getReserves();
        bool token0 = IBusyPair(pair).token0() == address(this);
        (uint256 rIn, uint256 rOut) = token0 ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
        _move(address(this), pair, amount);
        uint256 out = (amount * 997 * rOut) / (rIn * 1000 + amount * 997);
        IBusyPair(pair).swap(token0 ? 0 : out, token0 ? out : 0, marketingWallet, "");
        inSwap = false;
    }

    function _move(address from, address to, uint256 v) internal {
        balanceOf[from] -= v;
        balanceOf[to] += v;
    }
}
