// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20Like, IV2Callee, IV2FactoryLike} from "./Interfaces.sol";

/// @title A constant-product pair with Uniswap V2's selectors, events and
/// fee (0.3%); the pair is its own LP token.
contract V2Pair {
    string public constant name = "Devnet V2 LP";
    string public constant symbol = "DEV-V2";
    uint8 public constant decimals = 18;
    uint256 public constant MINIMUM_LIQUIDITY = 1000;

    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    address public immutable factory;
    address public token0;
    address public token1;

    uint112 private reserve0;
    uint112 private reserve1;
    uint32 private blockTimestampLast;

    uint256 public price0CumulativeLast;
    uint256 public price1CumulativeLast;
    uint256 public kLast;

    uint256 private unlocked = 1;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Mint(address indexed sender, uint256 amount0, uint256 amount1);
    event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to);
    event Swap(
        address indexed sender,
        uint256 amount0In,
        uint256 amount1In,
        uint256 amount0Out,
        uint256 amount1Out,
        address indexed to
    );
    event Sync(uint112 reserve0, uint112 reserve1);

    modifier nonReentrant() {
        require(unlocked == 1, "V2: LOCKED");
        unlocked = 0;
        _;
        unlocked = 1;
    }

    constructor() {
        factory = msg.sender;
    }

    function initialize(address _token0, address _token1) external {
        require(msg.sender == factory, "V2: FORBIDDEN");
        token0 = _token0;
        token1 = _token1;
    }

    function getReserves() public view returns (uint112, uint112, uint32) {
        return (reserve0, reserve1, blockTimestampLast);
    }

    // --- LP token ---

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _moveShares(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "V2: ALLOWANCE");
            allowance[from][msg.sender] = allowed - value;
        }
        _moveShares(from, to, value);
        return true;
    }

    function _moveShares(address from, address to, uint256 value) private {
        require(balanceOf[from] >= value, "V2: BALANCE");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }

    function _mintShares(address to, uint256 value) private {
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function _burnShares(address from, uint256 value) private {
        balanceOf[from] -= value;
        totalSupply -= value;
        emit Transfer(from, address(0), value);
    }

    // --- pool ---

    function _pay(address token, address to, uint256 value) private {
        (bool ok, bytes memory ret) = token.call(abi.encodeCall(IERC20Like.transfer, (to, value)));
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "V2: TRANSFER_FAILED");
    }

    function _balances() private view returns (uint256 b0, uint256 b1) {
        b0 = IERC20Like(token0).balanceOf(address(this));
        b1 = IERC20Like(token1).balanceOf(address(this));
    }

    function _update(uint256 balance0, uint256 balance1, uint112 r0, uint112 r1) private {
        require(balance0 <= type(uint112).max && balance1 <= type(uint112).max, "V2: OVERFLOW");
        uint32 now32 = uint32(block.timestamp);
        unchecked {
            uint32 elapsed = now32 - blockTimestampLast;
            if (elapsed > 0 && r0 != 0 && r1 != 0) {
                // UQ112x112 prices; the accumulators are meant to wrap.
                price0CumulativeLast += ((uint256(r1) << 112) / r0) * elapsed;
                price1CumulativeLast += ((uint256(r0) << 112) / r1) * elapsed;
            }
        }
        reserve0 = uint112(balance0);
        reserve1 = uint112(balance1);
        blockTimestampLast = now32;
        emit Sync(reserve0, reserve1);
    }

    // The protocol fee, when the factory has a feeTo, is 1/6 of the growth
    // in sqrt(k) since the last liquidity event, paid as new LP shares.
    function _protocolFee(uint112 r0, uint112 r1) private returns (bool on) {
        address feeTo = IV2FactoryLike(factory).feeTo();
        on = feeTo != address(0);
        uint256 last = kLast;
        if (!on) {
            if (last != 0) kLast = 0;
            return on;
        }
        if (last == 0) return on;
        uint256 rootK = _sqrt(uint256(r0) * r1);
        uint256 rootKLast = _sqrt(last);
        if (rootK > rootKLast) {
            uint256 shares = (totalSupply * (rootK - rootKLast)) / (rootK * 5 + rootKLast);
            if (shares > 0) _mintShares(feeTo, shares);
        }
    }

    function mint(address to) external nonReentrant returns (uint256 liquidity) {
        (uint112 r0, uint112 r1,) = getReserves();
        (uint256 b0, uint256 b1) = _balances();
        uint256 in0 = b0 - r0;
        uint256 in1 = b1 - r1;
        bool feeOn = _protocolFee(r0, r1);
        uint256 supply = totalSupply;
        if (supply == 0) {
            liquidity = _sqrt(in0 * in1) - MINIMUM_LIQUIDITY;
            _mintShares(address(0), MINIMUM_LIQUIDITY); // locked forever
        } else {
            uint256 a = (in0 * supply) / r0;
            uint256 b = (in1 * supply) / r1;
            liquidity = a < b ? a : b;
        }
        require(liquidity > 0, "V2: INSUFFICIENT_LIQUIDITY_MINTED");
        _mintShares(to, liquidity);
        _update(b0, b1, r0, r1);
        if (feeOn) kLast = uint256(reserve0) * reserve1;
        emit Mint(msg.sender, in0, in1);
    }

    function burn(address to) external nonReentrant returns (uint256 amount0, uint256 amount1) {
        (uint112 r0, uint112 r1,) = getReserves();
        (uint256 b0, uint256 b1) = _balances();
        uint256 shares = balanceOf[address(this)];
        bool feeOn = _protocolFee(r0, r1);
        uint256 supply = totalSupply;
        amount0 = (shares * b0) / supply;
        amount1 = (shares * b1) / supply;
        require(amount0 > 0 && amount1 > 0, "V2: INSUFFICIENT_LIQUIDITY_BURNED");
        _burnShares(address(this), shares);
        _pay(token0, to, amount0);
        _pay(token1, to, amount1);
        (b0, b1) = _balances();
        _update(b0, b1, r0, r1);
        if (feeOn) kLast = uint256(reserve0) * reserve1;
        emit Burn(msg.sender, amount0, amount1, to);
    }

    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external nonReentrant {
        require(amount0Out > 0 || amount1Out > 0, "V2: INSUFFICIENT_OUTPUT_AMOUNT");
        (uint112 r0, uint112 r1,) = getReserves();
        require(amount0Out < r0 && amount1Out < r1, "V2: INSUFFICIENT_LIQUIDITY");
        require(to != token0 && to != token1, "V2: INVALID_TO");
        if (amount0Out > 0) _pay(token0, to, amount0Out);
        if (amount1Out > 0) _pay(token1, to, amount1Out);
        if (data.length > 0) IV2Callee(to).uniswapV2Call(msg.sender, amount0Out, amount1Out, data);
        (uint256 in0, uint256 in1) = _settle(amount0Out, amount1Out, r0, r1);
        emit Swap(msg.sender, in0, in1, amount0Out, amount1Out, to);
    }

    // Checks the constant-product invariant net of the 0.3% input fee and
    // records the new reserves; returns what came in.
    function _settle(uint256 amount0Out, uint256 amount1Out, uint112 r0, uint112 r1)
        private
        returns (uint256 in0, uint256 in1)
    {
        (uint256 b0, uint256 b1) = _balances();
        in0 = b0 > r0 - amount0Out ? b0 - (r0 - amount0Out) : 0;
        in1 = b1 > r1 - amount1Out ? b1 - (r1 - amount1Out) : 0;
        require(in0 > 0 || in1 > 0, "V2: INSUFFICIENT_INPUT_AMOUNT");
        uint256 adjusted0 = b0 * 1000 - in0 * 3;
        uint256 adjusted1 = b1 * 1000 - in1 * 3;
        require(adjusted0 * adjusted1 >= uint256(r0) * r1 * 1_000_000, "V2: K");
        _update(b0, b1, r0, r1);
    }

    function skim(address to) external nonReentrant {
        (uint256 b0, uint256 b1) = _balances();
        _pay(token0, to, b0 - reserve0);
        _pay(token1, to, b1 - reserve1);
    }

    function sync() external nonReentrant {
        (uint256 b0, uint256 b1) = _balances();
        _update(b0, b1, reserve0, reserve1);
    }

    function _sqrt(uint256 y) private pure returns (uint256 z) {
        if (y > 3) {
            z = y;
            uint256 x = y / 2 + 1;
            while (x < z) {
                z = x;
                x = (y / x + x) / 2;
            }
        } else if (y != 0) {
            z = 1;
        }
    }
}
