//! Generator spec strings: `kind:size[:option]...`, e.g. `square:19`, `rect:13x9`, `torus:19`,
//! `goldberg:2,1`, `grid:5x5x5:wrap`, `random:200:seed=7`, `wavy:19:amp=0.3`.

use crate::{
    MAX_NODES, Map, SpecError,
    generators::{cube, goldberg, grid, hex, ndgrid, random},
};

/// What `gobeyond map list` shows about a generator.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct GeneratorInfo {
    pub kind: &'static str,
    pub usage: &'static str,
    pub example: &'static str,
    pub description: &'static str,
    /// Checks the parsed spec's sizes and options, then builds the map.
    #[serde(skip)]
    build: fn(&Parsed) -> Result<Map, SpecError>,
}

/// Every generator, in the order a menu shows them.
pub const GENERATORS: &[GeneratorInfo] = &[
    GeneratorInfo {
        kind: "square",
        usage: "square:N (2..=52)",
        example: "square:19",
        description: "Classic N×N Go board",
        build: flat_grid,
    },
    GeneratorInfo {
        kind: "rect",
        usage: "rect:WxH",
        example: "rect:13x9",
        description: "Rectangular board",
        build: flat_grid,
    },
    GeneratorInfo {
        kind: "hex",
        usage: "hex:N",
        example: "hex:5",
        description: "Hexagonal board of hexagonal cells, side N (6 neighbours)",
        build: hexagonal,
    },
    GeneratorInfo {
        kind: "honeycomb",
        usage: "honeycomb:N",
        example: "honeycomb:4",
        description: "Vertices of the hexagonal tiling, side N (3 neighbours)",
        build: hexagonal,
    },
    GeneratorInfo {
        kind: "tri",
        usage: "tri:N",
        example: "tri:9",
        description: "Triangle of the triangular lattice, side N (6 neighbours)",
        build: hexagonal,
    },
    GeneratorInfo {
        kind: "torus",
        usage: "torus:N or torus:WxH (each ≥ 3)",
        example: "torus:19",
        description: "Grid wrapped in both directions (space donut)",
        build: wrapped_grid,
    },
    GeneratorInfo {
        kind: "cylinder",
        usage: "cylinder:WxH (W ≥ 3)",
        example: "cylinder:19x9",
        description: "Grid wrapped left to right",
        build: wrapped_grid,
    },
    GeneratorInfo {
        kind: "klein",
        usage: "klein:WxH (each ≥ 3)",
        example: "klein:12x12",
        description: "Klein bottle: wrapped, the left-right seam flipped",
        build: wrapped_grid,
    },
    GeneratorInfo {
        kind: "cube",
        usage: "cube:N",
        example: "cube:5",
        description: "Sugar cube: six N×N faces stitched at their edges",
        build: cube_surface,
    },
    GeneratorInfo {
        kind: "goldberg",
        usage: "goldberg:M,N or goldberg:M",
        example: "goldberg:6,0",
        description: "Goldberg polyhedron GP(M,N): 12 pentagons and hexagons on a sphere",
        build: goldberg_sphere,
    },
    GeneratorInfo {
        kind: "grid",
        usage: "grid:AxBxC...[:wrap]",
        example: "grid:5x5x5",
        description: "N-dimensional grid (3-D, 4-D, ...), optionally wrapped",
        build: nd_grid,
    },
    GeneratorInfo {
        kind: "wavy",
        usage: "wavy:N or wavy:WxH[:amp=A] (A < 0.5)",
        example: "wavy:13",
        description: "Grid topology with wavy drawing",
        build: wavy_grid,
    },
    GeneratorInfo {
        kind: "random",
        usage: "random:N[:seed=S]",
        example: "random:200:seed=7",
        description: "Seeded random planar mesh (Gabriel graph)",
        build: random_mesh,
    },
];

struct Parsed<'a> {
    spec: &'a str,
    kind: &'static str,
    usage: &'static str,
    args: &'a str,
    options: Vec<(&'a str, Option<&'a str>)>,
    /// The most nodes the caller accepts (checked before generating).
    limit: usize,
}

impl Parsed<'_> {
    fn bad(&self, reason: impl Into<String>) -> SpecError {
        SpecError::BadParameters { spec: self.spec.to_string(), reason: reason.into(), usage: self.usage }
    }

    fn number(&self, s: &str) -> Result<u32, SpecError> {
        s.trim().parse::<u32>().map_err(|_| self.bad(format!("{s:?} is not a whole number")))
    }

    /// `AxBx...` (or a single number, repeated `default_dims` times).
    fn dims(&self, default_dims: usize) -> Result<Vec<u32>, SpecError> {
        let parts: Vec<&str> = self.args.split(['x', 'X', '×']).collect();
        let mut dims = parts.iter().map(|p| self.number(p)).collect::<Result<Vec<_>, _>>()?;
        if dims.len() == 1 && default_dims > 1 {
            dims = vec![dims[0]; default_dims];
        }
        Ok(dims)
    }

    fn two_dims(&self, min: u32) -> Result<(u32, u32), SpecError> {
        let d = self.dims(2)?;
        if d.len() != 2 {
            return Err(self.bad("expected width x height"));
        }
        for &v in &d {
            if v < min {
                return Err(self.bad(format!("each side must be at least {min}")));
            }
        }
        check_size(self, product(&[u64::from(d[0]), u64::from(d[1])]))?;
        Ok((d[0], d[1]))
    }

    fn option(&self, key: &str) -> Option<Option<&str>> {
        self.options.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    fn known_options(&self, keys: &[&str]) -> Result<(), SpecError> {
        for (k, _) in &self.options {
            if !keys.contains(k) {
                return Err(self.bad(format!("unknown option {k:?}")));
            }
        }
        Ok(())
    }
}

/// `a × b × …` without overflow: a product too big for u64 is `u64::MAX`, which no size check
/// lets through (a wrapped count once let `goldberg:1224363039,236568013` pass as 356 nodes).
fn product(factors: &[u64]) -> u64 {
    factors.iter().try_fold(1u64, |acc, &x| acc.checked_mul(x)).unwrap_or(u64::MAX)
}

fn check_size(p: &Parsed, nodes: u64) -> Result<(), SpecError> {
    if nodes == 0 {
        return Err(p.bad("the map would have no nodes"));
    }
    if nodes > p.limit as u64 {
        let limit = p.limit;
        return Err(p.bad(format!("the map would have {nodes} nodes; at most {limit} are allowed")));
    }
    Ok(())
}

/// Builds the map a spec string names. Errors say what was wrong and show the usage.
pub fn generate(spec: &str) -> Result<Map, SpecError> {
    generate_within(spec, MAX_NODES)
}

/// [`generate`], refusing a map of more than `limit` nodes before any work is done (a server
/// that plays on at most 4096 nodes should not spend time building 65,536).
pub fn generate_within(spec: &str, limit: usize) -> Result<Map, SpecError> {
    let limit = limit.min(MAX_NODES);
    let spec = spec.trim();
    let mut parts = spec.split(':');
    let kind = parts.next().unwrap_or_default().to_ascii_lowercase();
    let Some(info) = GENERATORS.iter().find(|g| g.kind == kind) else {
        return Err(SpecError::UnknownKind {
            kind,
            known: GENERATORS.iter().map(|g| g.kind).collect::<Vec<_>>().join(", "),
        });
    };
    let args = parts.next().unwrap_or_default();
    let options = parts
        .map(|o| match o.split_once('=') {
            Some((k, v)) => (k, Some(v)),
            None => (o, None),
        })
        .collect();
    let p = Parsed { spec, kind: info.kind, usage: info.usage, args, options, limit };
    if args.is_empty() {
        return Err(p.bad("missing size"));
    }
    (info.build)(&p)
}

/// `square:N` and `rect:WxH`: the flat boards.
fn flat_grid(p: &Parsed) -> Result<Map, SpecError> {
    p.known_options(&[])?;
    let (w, h) = if p.kind == "square" {
        let n = p.number(p.args)?;
        if !(2..=52).contains(&n) {
            return Err(p.bad("the side must be between 2 and 52"));
        }
        (n, n)
    } else {
        p.two_dims(1)?
    };
    if w * h < 2 {
        return Err(p.bad("a board needs at least 2 points"));
    }
    let name = if w == h { format!("{w}×{h} board") } else { format!("{w}×{h} rectangle") };
    Ok(grid::build(&name, p.spec, w, h, grid::Wrap::None, grid::Drawing::Flat)?)
}

/// `torus`, `cylinder` and `klein`: grids whose edges meet.
fn wrapped_grid(p: &Parsed) -> Result<Map, SpecError> {
    p.known_options(&[])?;
    let (w, h) = p.two_dims(3)?;
    let (wrap, drawing, name) = match p.kind {
        "torus" => (grid::Wrap::Both, grid::Drawing::Space, format!("Torus {w}×{h}")),
        "cylinder" => (grid::Wrap::X, grid::Drawing::Space, format!("Cylinder {w}×{h}")),
        _ => (grid::Wrap::Klein, grid::Drawing::Flat, format!("Klein bottle {w}×{h}")),
    };
    Ok(grid::build(&name, p.spec, w, h, wrap, drawing)?)
}

/// `wavy:WxH[:amp=A]`: a grid drawn with wavy lines.
fn wavy_grid(p: &Parsed) -> Result<Map, SpecError> {
    p.known_options(&["amp"])?;
    let (w, h) = p.two_dims(2)?;
    let amplitude = match p.option("amp") {
        Some(Some(v)) => v.parse::<f64>().map_err(|_| p.bad(format!("amp={v} is not a number")))?,
        Some(None) => return Err(p.bad("amp needs a value, e.g. amp=0.3")),
        None => 0.3,
    };
    if !(0.0..0.5).contains(&amplitude) {
        return Err(p.bad("amp must be at least 0 and below 0.5"));
    }
    let drawing = grid::Drawing::Wavy { amplitude };
    Ok(grid::build(&format!("Wavy {w}×{h}"), p.spec, w, h, grid::Wrap::None, drawing)?)
}

/// `hex`, `honeycomb` and `tri`: the hexagonal and triangular lattices.
fn hexagonal(p: &Parsed) -> Result<Map, SpecError> {
    p.known_options(&[])?;
    let n = p.number(p.args)?;
    let n64 = u64::from(n);
    let nodes = match p.kind {
        "hex" => product(&[3, n64, n64.saturating_sub(1)]).saturating_add(1),
        "honeycomb" => product(&[6, n64, n64]),
        _ => product(&[n64, n64 + 1]) / 2,
    };
    if n < 2 {
        return Err(p.bad("the side must be at least 2"));
    }
    check_size(p, nodes)?;
    let map = match p.kind {
        "hex" => hex::hex(n, p.spec)?,
        "honeycomb" => hex::honeycomb(n, p.spec)?,
        _ => hex::tri(n, p.spec)?,
    };
    Ok(map)
}

/// `cube:N`: six N×N faces.
fn cube_surface(p: &Parsed) -> Result<Map, SpecError> {
    p.known_options(&[])?;
    let n = p.number(p.args)?;
    if n < 1 {
        return Err(p.bad("the side must be at least 1"));
    }
    check_size(p, product(&[6, u64::from(n), u64::from(n)]))?;
    Ok(cube::cube(n, p.spec)?)
}

/// `goldberg:M,N`: the Goldberg polyhedron GP(M,N).
fn goldberg_sphere(p: &Parsed) -> Result<Map, SpecError> {
    p.known_options(&[])?;
    let nums: Vec<u32> = p.args.split(',').map(|s| p.number(s)).collect::<Result<_, _>>()?;
    let (m, n) = match nums.as_slice() {
        [m] => (*m, 0),
        [m, n] => (*m, *n),
        _ => return Err(p.bad("expected M,N")),
    };
    if m == 0 && n == 0 {
        return Err(p.bad("M and N cannot both be 0"));
    }
    // GP(m,n) and GP(n,m) are mirror images; keep M ≥ N so the lattice walk is the same.
    let (m, n) = (m.max(n), m.min(n));
    let (m64, n64) = (u64::from(m), u64::from(n));
    let t = product(&[m64, m64]).saturating_add(product(&[m64, n64])).saturating_add(product(&[n64, n64]));
    check_size(p, product(&[10, t]).saturating_add(2))?;
    Ok(goldberg::goldberg(m, n, p.spec)?)
}

/// `grid:AxBxC...[:wrap]`: a grid of any number of dimensions up to 8.
fn nd_grid(p: &Parsed) -> Result<Map, SpecError> {
    p.known_options(&["wrap"])?;
    let dims = p.dims(1)?;
    if dims.contains(&0) {
        return Err(p.bad("every side must be at least 1"));
    }
    if dims.len() > 8 {
        return Err(p.bad("at most 8 dimensions"));
    }
    let nodes = product(&dims.iter().map(|&d| u64::from(d)).collect::<Vec<_>>());
    check_size(p, nodes)?;
    if nodes < 2 {
        return Err(p.bad("a board needs at least 2 points"));
    }
    Ok(ndgrid::ndgrid(&dims, p.option("wrap").is_some(), p.spec)?)
}

/// `random:N[:seed=S]`: a seeded random planar mesh.
fn random_mesh(p: &Parsed) -> Result<Map, SpecError> {
    p.known_options(&["seed"])?;
    let n = p.number(p.args)?;
    if n < 2 {
        return Err(p.bad("at least 2 nodes"));
    }
    check_size(p, n as u64)?;
    let seed = match p.option("seed") {
        Some(Some(v)) => v.parse::<u64>().map_err(|_| p.bad(format!("seed={v} is not a whole number")))?,
        Some(None) => return Err(p.bad("seed needs a value, e.g. seed=7")),
        None => 1,
    };
    Ok(random::random(n, seed, p.spec)?)
}
