// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title What a Prober run needs of a donor, and nothing more: placed by
/// state override at the holders that may fund the victim (Go:
/// probe.ProbeCalls), where the Prober's own code (ten times larger) used
/// to sit. Every probe eth_call carried that code once per donor; this is
/// a tenth of its size.
///
/// A donor is seen by the token only through send() (a transfer with the
/// donor as msg.sender, the same call with the same gas as Prober.send)
/// and through calls the token makes to it: those are answered as the
/// Prober answers them (a true word; empty calldata accepted with coin),
/// and counted on the victim only when this code runs by DELEGATECALL
/// from a contract, as the Prober counts them. Nothing is ever deployed.
contract ProbeDonor {
    bytes32 private constant HITS_SLOT = keccak256("tokenrisk.prober.hits");
    address private constant VICTIM = address(uint160(uint256(keccak256("tokenrisk.probe.victim"))));

    /// @notice Transfers `amount` of `token` from this address (Prober.send).
    function send(address token, address to, uint256 amount) external returns (bool) {
        (bool ok, bytes memory ret) = token.call{gas: 1_000_000}(abi.encodeWithSelector(0xa9059cbb, to, amount));
        if (!ok) return false;
        if (ret.length == 0) return true;
        return ret.length >= 32 && abi.decode(ret, (uint256)) != 0;
    }

    /// @notice Prober.hits: calls counted at this address.
    function hits() external view returns (uint256 n) {
        bytes32 slot = HITS_SLOT;
        assembly {
            n := sload(slot)
        }
    }

    /// @notice Prober.hit: counts one call.
    function hit() external {
        bytes32 slot = HITS_SLOT;
        assembly {
            sstore(slot, add(sload(slot), 1))
        }
    }

    /// @notice Any other call is answered with a true word. The Prober at
    /// a donor counts it on the victim only when its code runs in another
    /// contract's account (a DELEGATECALL: that account's code is neither
    /// the victim's nor this one); so does this.
    fallback(bytes calldata) external payable returns (bytes memory) {
        bytes32 here = address(this).codehash;
        if (address(this) == VICTIM || (here != VICTIM.codehash && here != _ownCodehash())) {
            (bool ok,) = VICTIM.call{gas: 50000}(abi.encodeWithSignature("hit()"));
            ok;
        }
        return abi.encode(uint256(1));
    }

    /// @dev The hash of the code running now (this contract's runtime code).
    function _ownCodehash() private pure returns (bytes32 h) {
        assembly {
            let size := codesize()
            let p := mload(0x40)
            codecopy(p, 0, size)
            h := keccak256(p, size)
        }
    }

    receive() external payable {}
}
