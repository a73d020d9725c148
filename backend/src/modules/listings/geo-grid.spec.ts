import { describe, expect, it } from '@jest/globals';
import {
  boundsAround,
  cellRange,
  cellsWhollyWithin,
  cellsWithin,
  EARTH_RADIUS_METRES,
  GEO_CELL,
  METRES_PER_MILE,
  type Bounds,
} from './geo-grid.js';

/** Haversine on the same sphere, written out again so that the grid's own sum is not checked against itself. */
function miles(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return (2 * EARTH_RADIUS_METRES * Math.asin(Math.sqrt(h))) / METRES_PER_MILE;
}

/** Points over a square, its edges and corners included. */
function pointsOf(cell: number): Array<[number, number]> {
  const { latitudeDegrees: height, longitudeDegrees: width, rowStride } = GEO_CELL;
  const south = Math.floor(cell / rowStride) * height - 90;
  const west = (cell % rowStride) * width - 180;
  const points: Array<[number, number]> = [];
  for (let i = 0; i <= 8; i++) for (let j = 0; j <= 8; j++) points.push([south + (height * i) / 8, west + (width * j) / 8]);
  return points;
}

describe('grid squares', () => {
  // Taunton, Lerwick (far north, narrow squares) and Penzance; radii from under a square to many.
  const centres: Array<[number, number]> = [
    [51.01494, -3.10293],
    [60.15457, -1.14561],
    [50.11861, -5.53715],
  ];

  it.each(centres.flatMap(([lat, lon]) => [3, 10, 25, 60].map((radius): [number, number, number] => [lat, lon, radius])))(
    'round %f, %f, %i miles: a square counted wholly inside has every point within the radius, and every other one a point beyond it',
    (lat, lon, radius) => {
      const squares = cellsWithin(lat, lon, radius, boundsAround(lat, lon, radius) as Bounds) as number[];
      const inside = cellsWhollyWithin(lat, lon, radius, squares);
      expect(inside.every((cell) => squares.includes(cell))).toBe(true);
      for (const cell of squares) {
        const farthest = Math.max(...pointsOf(cell).map(([pLat, pLon]) => miles(lat, lon, pLat, pLon)));
        if (inside.includes(cell)) expect(farthest).toBeLessThanOrEqual(radius);
        else expect(farthest).toBeGreaterThan(radius * 0.999);
      }
      if (radius >= 25) expect(inside.length).toBeGreaterThan(0);
    },
  );
  it.each(centres)(
    'a wide radius (250 miles) from %f, %f: every point of its box is within its range of squares, and every square of the range is in its rows',
    (lat, lon) => {
      const box = boundsAround(lat, lon, 250) as Bounds;
      const { low, high } = cellRange(box);
      const { latitudeDegrees: height, longitudeDegrees: width, rowStride } = GEO_CELL;
      const cellOf = (pLat: number, pLon: number) => Math.floor((pLat + 90) / height) * rowStride + Math.floor((pLon + 180) / width);
      for (let i = 0; i <= 20; i++)
        for (let j = 0; j <= 20; j++) {
          const cell = cellOf(box.south + ((box.north - box.south) * i) / 20, box.west + ((box.east - box.west) * j) / 20);
          expect(cell).toBeGreaterThanOrEqual(low);
          expect(cell).toBeLessThanOrEqual(high);
        }
      // Neither a row south of the box nor one north of it.
      expect(low).toBeGreaterThan(cellOf(box.south - height, box.east));
      expect(high).toBeLessThan(cellOf(box.north + height, box.west));
    },
  );
});
