//! Zobrist keys from a `const fn` SplitMix64: stable across library versions, so hashes stored
//! in records or tests never change, and no table has to be built per map.

const fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of a stone of colour code `stone` (1..=8) on `node`.
#[inline]
pub const fn stone_key(node: u32, stone: u8) -> u64 {
    splitmix(((node as u64) << 4) | stone as u64)
}

/// A key for any value a rule system packs into 64 bits itself (a stack's node, colour and
/// height in The Way of Go and BeSiege), from the same stable generator.
#[inline]
pub const fn key(parts: u64) -> u64 {
    splitmix(parts ^ 0x5EED_0000_0000_0000)
}

/// The key of "player `p` to move", for situational superko.
#[inline]
pub const fn to_move_key(player: u8) -> u64 {
    splitmix(0xFFFF_FFFF_0000_0000 | player as u64)
}
