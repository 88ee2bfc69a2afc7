// The board in space (Goldberg sphere, torus, cube, 3-D grids) with three.js. This module is
// loaded with a dynamic import, only for such maps. It draws on demand (after a change or a
// camera move), not every frame.

import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { Board, BoardView } from './board2d';
import { playerStyle } from './colors';
import { cameraDistance, outward, solidBody, spatialFrame } from './layout';
import type { MapView } from './types';

export function createBoard3D(
  container: HTMLElement,
  map: MapView,
  onPick: (node: number) => void,
  onHover: (node: number | null) => void = () => {},
): Board {
  const frame = spatialFrame(map);
  const [cx, cy, cz] = frame.center;
  const n = map.nodes;
  const pos = (i: number) => new THREE.Vector3(map.x[i] - cx, -(map.y[i] - cy), (map.z[i] ?? 0) - cz);

  const wrap = document.createElement('div');
  wrap.className = 'board3d';
  container.append(wrap);
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
  wrap.append(renderer.domElement);
  renderer.domElement.setAttribute('aria-label', `${map.name} board in 3-D: drag to rotate, wheel or pinch to zoom`);

  const scene = new THREE.Scene();
  renderer.setClearColor(0xe3c07e);
  const camera = new THREE.PerspectiveCamera(40, 1, 0.01, 100 * frame.radius);
  // An angled first view, not down an axis: a torus shows its ring and its tube, a cube three
  // faces.
  const start = new THREE.Vector3(0.55, 0.45, 1).normalize().multiplyScalar(cameraDistance(frame.radius, 40, 1));
  camera.position.copy(start);
  scene.add(new THREE.AmbientLight(0xffffff, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 1.8);
  sun.position.set(1, 1, 2);
  camera.add(sun);
  scene.add(camera);

  const controls = new OrbitControls(camera, renderer.domElement);
  controls.enableDamping = false;
  controls.minDistance = frame.radius * 0.3;
  controls.maxDistance = frame.radius * 8;

  // Lines between neighbours.
  const linePos = new Float32Array(map.edges.length * 6);
  map.edges.forEach(([a, b], k) => {
    const p = pos(a);
    const q = pos(b);
    linePos.set([p.x, p.y, p.z, q.x, q.y, q.z], k * 6);
  });
  const lineGeo = new THREE.BufferGeometry();
  lineGeo.setAttribute('position', new THREE.BufferAttribute(linePos, 3));
  scene.add(new THREE.LineSegments(lineGeo, new THREE.LineBasicMaterial({ color: 0x7a5c2e })));

  const s = frame.stone;
  // An opaque body just under the nodes (sphere, torus, cube, cylinder) hides the far side,
  // which would otherwise show through and make the near side hard to read.
  const body = solidBody(map, frame);
  const bodyMaterial = new THREE.MeshLambertMaterial({ color: 0xe8cb8f });
  let solid: THREE.Mesh | null = null;
  if (body?.kind === 'sphere') solid = new THREE.Mesh(new THREE.SphereGeometry(body.radius, 48, 32), bodyMaterial);
  else if (body?.kind === 'torus') solid = new THREE.Mesh(new THREE.TorusGeometry(body.ring, body.tube, 32, 96), bodyMaterial);
  else if (body?.kind === 'box') solid = new THREE.Mesh(new THREE.BoxGeometry(2 * body.half[0], 2 * body.half[1], 2 * body.half[2]), bodyMaterial);
  else if (body?.kind === 'cylinder') solid = new THREE.Mesh(new THREE.CylinderGeometry(body.radius, body.radius, body.height, 64, 1, true), new THREE.MeshLambertMaterial({ color: 0xe8cb8f, side: THREE.DoubleSide }));
  // Every body is symmetric under the y flip pos() makes: no mirroring needed.
  if (solid) scene.add(solid);
  const out = (i: number) => {
    const p = pos(i);
    const [x, y, z] = outward(body, [p.x, -p.y, p.z]);
    return new THREE.Vector3(x, -y, z);
  };
  const matrix = new THREE.Matrix4();
  const hidden = new THREE.Matrix4().makeScale(0, 0, 0);
  const place = (mesh: THREE.InstancedMesh, i: number, scale: number) => {
    const p = pos(i);
    matrix.makeScale(scale, scale, scale).setPosition(p);
    mesh.setMatrixAt(i, matrix);
  };

  // Empty points, picking targets, stones, claims, reservations: one instanced mesh each.
  const points = new THREE.InstancedMesh(new THREE.SphereGeometry(1, 8, 6), new THREE.MeshLambertMaterial({ color: 0x8a6a3a }), n);
  const hits = new THREE.InstancedMesh(new THREE.SphereGeometry(1, 8, 6), new THREE.MeshBasicMaterial({ visible: false }), n);
  const stones = new THREE.InstancedMesh(new THREE.SphereGeometry(1, 20, 14), new THREE.MeshStandardMaterial({ roughness: 0.45, metalness: 0.05 }), n);
  const claims = new THREE.InstancedMesh(new THREE.OctahedronGeometry(1), new THREE.MeshLambertMaterial(), n);
  const fields = new THREE.InstancedMesh(
    new THREE.SphereGeometry(1, 16, 12),
    new THREE.MeshBasicMaterial({ transparent: true, opacity: 0.35, depthWrite: false }),
    n,
  );
  // Reachable nodes, captures a move would make, the liberties under the pointer: a soft green
  // halo.
  const reach = new THREE.InstancedMesh(
    new THREE.SphereGeometry(1, 12, 8),
    new THREE.MeshBasicMaterial({ color: 0x3b8f5a, transparent: true, opacity: 0.35, depthWrite: false }),
    n,
  );
  const unset = new THREE.Color(0);
  for (let i = 0; i < n; i++) {
    place(points, i, s * 0.3);
    // Easier to hit than the stone is wide.
    place(hits, i, s * 1.8);
    stones.setMatrixAt(i, hidden);
    claims.setMatrixAt(i, hidden);
    fields.setMatrixAt(i, hidden);
    reach.setMatrixAt(i, hidden);
    stones.setColorAt(i, unset);
    claims.setColorAt(i, unset);
    fields.setColorAt(i, unset);
  }
  scene.add(points, hits, stones, claims, fields, reach);
  // Node names on the board (maps of a few hundred nodes): "17" must be a place one can find.
  const labels: (THREE.Sprite | null)[] = new Array(n).fill(null);
  if (n <= 600) {
    for (let i = 0; i < n; i++) {
      const sprite = labelSprite(map.labels[i], s);
      // On the node, just off the body: a stone placed there hides it.
      sprite.position.copy(pos(i).add(out(i).multiplyScalar(s * 0.4)));
      scene.add(sprite);
      labels[i] = sprite;
    }
  }
  const lastMark = new THREE.Mesh(new THREE.SphereGeometry(1, 12, 8), new THREE.MeshBasicMaterial({ color: 0xff2222 }));
  lastMark.visible = false;
  scene.add(lastMark);
  const hoverMark = new THREE.Mesh(new THREE.SphereGeometry(1, 16, 12), new THREE.MeshBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.5 }));
  hoverMark.visible = false;
  scene.add(hoverMark);

  /** Labels that would be shown (free nodes); of these, only those facing the viewer are. */
  const labelWanted: boolean[] = new Array(n).fill(false);
  const outs = Array.from({ length: n }, (_, i) => out(i));
  const toCamera = new THREE.Vector3();
  let dirty = false;
  const draw = () => {
    dirty = false;
    // A name on the far side would show through beside the body's outline: hidden.
    for (let i = 0; i < n; i++) {
      const l = labels[i];
      if (!l) continue;
      l.visible = labelWanted[i] && toCamera.copy(camera.position).sub(l.position).normalize().dot(outs[i]) > 0.2;
    }
    renderer.render(scene, camera);
  };
  const request = () => {
    if (!dirty) {
      dirty = true;
      requestAnimationFrame(draw);
    }
  };
  controls.addEventListener('change', request);

  const resize = () => {
    const w = wrap.clientWidth || 300;
    const h = wrap.clientHeight || w;
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    request();
  };
  const observer = new ResizeObserver(resize);
  observer.observe(wrap);
  resize();

  const raycaster = new THREE.Raycaster();
  const pointer = new THREE.Vector2();
  const nodeAtEvent = (ev: PointerEvent | MouseEvent): number | null => {
    const rect = renderer.domElement.getBoundingClientRect();
    pointer.set(((ev.clientX - rect.left) / rect.width) * 2 - 1, -((ev.clientY - rect.top) / rect.height) * 2 + 1);
    raycaster.setFromCamera(pointer, camera);
    const hit = raycaster.intersectObject(hits, false)[0];
    return hit?.instanceId ?? null;
  };
  // A click is a press and release without dragging (a drag rotates).
  let down: { x: number; y: number } | null = null;
  renderer.domElement.addEventListener('pointerdown', (ev) => {
    down = { x: ev.clientX, y: ev.clientY };
  });
  renderer.domElement.addEventListener('pointerup', (ev) => {
    if (down && Math.hypot(ev.clientX - down.x, ev.clientY - down.y) < 6) {
      const node = nodeAtEvent(ev);
      if (node !== null) onPick(node);
    }
    down = null;
  });
  renderer.domElement.addEventListener('pointermove', (ev) => {
    if (down) return;
    const node = nodeAtEvent(ev);
    // Hover marks a free node only: over a stone it would tint the stone.
    if (node === null || !lastView?.interactive || lastView.board[node] != null) hoverMark.visible = false;
    else {
      hoverMark.visible = true;
      hoverMark.position.copy(pos(node));
      hoverMark.scale.setScalar(s * 0.8);
    }
    onHover(node);
    request();
  });

  const color = new THREE.Color();
  let lastView: BoardView | null = null;
  const board: Board & { focus(node: number): void; resetView(): void; screenPosition(node: number): { x: number; y: number } | null } = {
    element: renderer.domElement,
    render(view: BoardView) {
      lastView = view;
      if (hoverMark.visible && !view.interactive) hoverMark.visible = false;
      // A node's name marks it: no dot under it.
      points.visible = view.showLabels === false || labels.every((l) => l === null);
      const stoneDeco = view.decorations?.stones;
      const nodeDeco = view.decorations?.nodes;
      const hover = view.decorations?.hover;
      for (let i = 0; i < n; i++) {
        const owner = view.board[i] ?? null;
        labelWanted[i] = owner === null && view.showLabels !== false;
        const sd = stoneDeco?.get(i);
        if (owner === null) stones.setMatrixAt(i, hidden);
        else {
          place(stones, i, s * (sd?.scale ?? 1) * (sd?.crossed ? 0.7 : 1));
          stones.setColorAt(i, color.set(playerStyle(sd?.style ?? owner, view.players).fill));
        }
        const nd = nodeDeco?.get(i);
        // A stone covers its node's claim, reservation and tint.
        const empty = owner === null ? nd : undefined;
        const claimant = empty?.territory ?? empty?.claim ?? null;
        if (claimant === null) claims.setMatrixAt(i, hidden);
        else {
          place(claims, i, s * 0.35);
          claims.setColorAt(i, color.set(playerStyle(claimant, view.players).fill));
        }
        if ((owner === null && hover?.has(i)) || nd?.shade === 'reachable' || sd?.ring === 'target') place(reach, i, s * 0.7);
        else reach.setMatrixAt(i, hidden);
        const res = empty?.ring?.kind === 'reserved' ? empty.ring.seat : null;
        // A tinted node: a small mark in the colour that keeps stones off it (grey for both).
        const tint = empty?.tint ?? null;
        if (res !== null) {
          place(fields, i, s * 0.95);
          fields.setColorAt(i, color.set(playerStyle(res, view.players).fill));
        } else if (tint !== null) {
          place(fields, i, s * 0.4);
          fields.setColorAt(i, color.set(tint === 'both' ? 'grey' : playerStyle(tint, view.players).fill));
        } else fields.setMatrixAt(i, hidden);
      }
      for (const m of [stones, claims, fields, reach]) {
        m.instanceMatrix.needsUpdate = true;
        if (m.instanceColor) m.instanceColor.needsUpdate = true;
      }
      if (view.lastMove !== null && view.board[view.lastMove] != null) {
        lastMark.visible = true;
        const p = pos(view.lastMove);
        // On the stone's top, along the body's normal: its centre inside the stone, so only a
        // cap shows and it stays on the stone from any angle (at 1.05 stone radii out it
        // floated beside the stone seen from the side).
        const scale = view.decorations?.stones?.get(view.lastMove)?.scale ?? 1;
        lastMark.position.copy(p.clone().add(out(view.lastMove).multiplyScalar(s * scale * 0.8)));
        lastMark.scale.setScalar(s * 0.35);
      } else lastMark.visible = false;
      renderer.domElement.classList.toggle('interactive', view.interactive);
      request();
    },
    /** Turns the view to `node`, seen from outside its body, and orbits around it from then on. */
    focus(node: number) {
      if (node < 0 || node >= n) return;
      const target = pos(node);
      // At the first view's distance: a zoom from before would keep the stone out of sight.
      const distance = start.length();
      controls.target.copy(target);
      camera.position.copy(target.clone().add(out(node).multiplyScalar(distance)));
      camera.lookAt(target);
      controls.update();
      request();
    },
    resetView() {
      controls.target.set(0, 0, 0);
      camera.position.copy(start);
      camera.lookAt(controls.target);
      controls.update();
      request();
    },
    /** Where a node is on the screen (page pixels), or null when it is behind the map: for tests and keyboard hints. */
    screenPosition(node: number) {
      const p = pos(node);
      raycaster.set(camera.position, p.clone().sub(camera.position).normalize());
      const first = raycaster.intersectObject(hits, false)[0];
      if (first?.instanceId !== node) return null;
      const v = p.clone().project(camera);
      const rect = renderer.domElement.getBoundingClientRect();
      return { x: rect.left + ((v.x + 1) / 2) * rect.width, y: rect.top + ((1 - v.y) / 2) * rect.height };
    },
    destroy() {
      observer.disconnect();
      controls.dispose();
      renderer.dispose();
      wrap.remove();
    },
  };
  // Tests and tools find the board from its canvas.
  (renderer.domElement as HTMLCanvasElement & { gobeyondBoard?: typeof board }).gobeyondBoard = board;
  return board;
}

/** A node's name as a small sprite that always faces the viewer. */
function labelSprite(text: string, stone: number): THREE.Sprite {
  const canvas = document.createElement('canvas');
  canvas.width = 128;
  canvas.height = 64;
  const ctx = canvas.getContext('2d');
  if (ctx) {
    ctx.font = 'bold 40px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = 'rgba(60, 40, 10, 0.55)';
    ctx.fillText(text, 64, 34, 124);
  }
  const texture = new THREE.CanvasTexture(canvas);
  const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: texture, transparent: true, depthWrite: false }));
  // Smaller than a stone: names are for finding a node, not for reading across the board.
  sprite.scale.set(stone * 1.2, stone * 0.6, 1);
  return sprite;
}
