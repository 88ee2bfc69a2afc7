// The board in space (Goldberg sphere, torus, cube, 3-D grids) with three.js. This module is
// loaded with a dynamic import, only for such maps. It draws on demand (after a change or a
// camera move), not every frame.

import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { Board, BoardView } from './board2d';
import { playerStyle } from './colors';
import { cameraDistance, spatialFrame } from './layout';
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
  camera.position.set(0, 0, cameraDistance(frame.radius, 40, 1));
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
  // On a sphere-like map (Goldberg), an opaque globe just under the nodes hides the far side,
  // which would otherwise show through and make the near side hard to read.
  const distances = Array.from({ length: n }, (_, i) => pos(i).length());
  const inner = Math.min(...distances);
  if (n > 0 && inner > 0.9 * frame.radius) {
    const globe = new THREE.Mesh(
      new THREE.SphereGeometry(inner - s * 0.25, 48, 32),
      new THREE.MeshLambertMaterial({ color: 0xe8cb8f }),
    );
    scene.add(globe);
  }
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
  const unset = new THREE.Color(0);
  for (let i = 0; i < n; i++) {
    place(points, i, s * 0.18);
    place(hits, i, s);
    stones.setMatrixAt(i, hidden);
    claims.setMatrixAt(i, hidden);
    fields.setMatrixAt(i, hidden);
    stones.setColorAt(i, unset);
    claims.setColorAt(i, unset);
    fields.setColorAt(i, unset);
  }
  scene.add(points, hits, stones, claims, fields);
  const lastMark = new THREE.Mesh(new THREE.SphereGeometry(1, 12, 8), new THREE.MeshBasicMaterial({ color: 0xff2222 }));
  lastMark.visible = false;
  scene.add(lastMark);
  const hoverMark = new THREE.Mesh(new THREE.SphereGeometry(1, 16, 12), new THREE.MeshBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.5 }));
  hoverMark.visible = false;
  scene.add(hoverMark);

  let dirty = false;
  const draw = () => {
    dirty = false;
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
  const board: Board & { screenPosition(node: number): { x: number; y: number } | null } = {
    element: renderer.domElement,
    render(view: BoardView) {
      lastView = view;
      if (hoverMark.visible && !view.interactive) hoverMark.visible = false;
      for (let i = 0; i < n; i++) {
        const owner = view.board[i] ?? null;
        if (owner === null) stones.setMatrixAt(i, hidden);
        else {
          place(stones, i, s * (view.selected?.has(i) ? 0.7 : 1));
          stones.setColorAt(i, color.set(playerStyle(owner, view.players).fill));
        }
        const claimant = owner === null ? (view.claims?.[i] ?? null) : null;
        if (claimant === null) claims.setMatrixAt(i, hidden);
        else {
          place(claims, i, s * 0.35);
          claims.setColorAt(i, color.set(playerStyle(claimant, view.players).fill));
        }
        const res = owner === null ? (view.reserved?.[i] ?? null) : null;
        if (res === null) fields.setMatrixAt(i, hidden);
        else {
          place(fields, i, s * 0.95);
          fields.setColorAt(i, color.set(playerStyle(res, view.players).fill));
        }
      }
      for (const m of [stones, claims, fields]) {
        m.instanceMatrix.needsUpdate = true;
        if (m.instanceColor) m.instanceColor.needsUpdate = true;
      }
      if (view.lastMove !== null && view.board[view.lastMove] != null) {
        lastMark.visible = true;
        const p = pos(view.lastMove);
        // Just outside the stone, towards the viewer of a sphere-like map.
        lastMark.position.copy(p.clone().multiplyScalar(1 + (s * 0.9) / Math.max(p.length(), 1e-9)));
        lastMark.scale.setScalar(s * 0.3);
      } else lastMark.visible = false;
      renderer.domElement.classList.toggle('interactive', view.interactive);
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
