//! SVG pictures of maps: flat maps as drawn, maps in space projected from a fixed viewpoint.

use std::fmt::Write;

use crate::Map;

/// Projects a point to the picture plane: identity for flat maps; for maps in space a rotation
/// (30° about x, then 35° about y) and an orthographic view, so that depth is visible.
fn project(map: &Map, p: [f64; 3]) -> (f64, f64, f64) {
    if map.dimension() == 2 {
        return (p[0], p[1], 0.0);
    }
    let (a, b) = (30f64.to_radians(), 35f64.to_radians());
    let (x, y, z) = (p[0], p[1], p[2]);
    let (x1, z1) = (x * b.cos() + z * b.sin(), -x * b.sin() + z * b.cos());
    let (y2, z2) = (y * a.cos() - z1 * a.sin(), y * a.sin() + z1 * a.cos());
    (x1, -y2, z2)
}

/// An SVG document showing nodes, edges and (for maps of at most 400 nodes) labels.
pub fn to_svg(map: &Map) -> String {
    let pts: Vec<(f64, f64, f64)> = map.nodes().map(|n| project(map, map.coord(n))).collect();
    let (mut minx, mut miny, mut maxx, mut maxy) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    let (mut minz, mut maxz) = (f64::MAX, f64::MIN);
    for &(x, y, z) in &pts {
        minx = minx.min(x);
        maxx = maxx.max(x);
        miny = miny.min(y);
        maxy = maxy.max(y);
        minz = minz.min(z);
        maxz = maxz.max(z);
    }
    let scale = 40.0;
    let margin = 30.0;
    let w = (maxx - minx) * scale + 2.0 * margin;
    let h = (maxy - miny) * scale + 2.0 * margin;
    let at = |(x, y, _): (f64, f64, f64)| ((x - minx) * scale + margin, (y - miny) * scale + margin);
    // Far nodes are drawn fainter so the back of a sphere does not hide the front.
    let depth = |z: f64| {
        if maxz > minz { 0.25 + 0.75 * (z - minz) / (maxz - minz) } else { 1.0 }
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.1} {h:.1}">"#
    );
    let _ = writeln!(s, "<title>{}</title>", escape(map.name()));
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#e8c77e"/>"##);
    let _ = writeln!(s, r##"<g stroke="#3b2a14" stroke-width="1.5">"##);
    for (a, b) in map.edges() {
        let (pa, pb) = (pts[a as usize], pts[b as usize]);
        // Wrap-around edges of a flat drawing (Klein bottle) would cross the board: leave them out.
        let len = ((pa.0 - pb.0).powi(2) + (pa.1 - pb.1).powi(2)).sqrt();
        if map.dimension() == 2 && len > 2.5 {
            continue;
        }
        let ((x1, y1), (x2, y2)) = (at(pa), at(pb));
        let o = depth((pa.2 + pb.2) / 2.0);
        let _ =
            writeln!(s, r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" opacity="{o:.2}"/>"#);
    }
    let _ = writeln!(s, "</g>");
    let labels = map.len() <= 400;
    let _ =
        writeln!(s, r##"<g fill="#3b2a14" font-family="sans-serif" font-size="9" text-anchor="middle">"##);
    for n in map.nodes() {
        let p = pts[n as usize];
        let (x, y) = at(p);
        let o = depth(p.2);
        let _ = writeln!(s, r#"<circle cx="{x:.1}" cy="{y:.1}" r="3" opacity="{o:.2}"/>"#);
        if labels {
            let _ = writeln!(
                s,
                r#"<text x="{x:.1}" y="{:.1}" opacity="{o:.2}">{}</text>"#,
                y - 6.0,
                escape(map.label(n))
            );
        }
    }
    let _ = writeln!(s, "</g>\n</svg>");
    s
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
