//! `light`: a uniformly random legal move that does not fill the mover's own eye. The move is the
//! engine's own light playout move, which the engine's benchmarks (`gobeyond bench playouts`)
//! measure.

pub use gobeyond_rules::playout::choose_light as choose;
