/**
 * The grid squares of `listing.geo_cell` and the plain spherical sums radius search uses: one
 * source for the entity's generated column and for the search's SQL and JavaScript.
 */

export const METRES_PER_MILE = 1609.344;

/** The sphere earthdistance measures on (its earth()), so distances agree with the ones it gives. */
export const EARTH_RADIUS_METRES = 6_378_168;

/** A degree of latitude is at least this many miles; a degree of longitude, this many times the cosine. */
export const MILES_PER_DEGREE = { latitude: 68.7, longitudeAtEquator: 69.17 } as const;

/** How much larger than the circle a box around it is drawn, against rounding. */
export const MARGIN = 1.01;

/**
 * Squares of 0.125 degrees of latitude by 0.2 of longitude (about 8.6 by 8.5 miles in the UK),
 * numbered row × rowStride + column, rows from the south pole and columns from 180° west.
 */
export const GEO_CELL = { latitudeDegrees: 0.125, longitudeDegrees: 0.2, rowStride: 10_000 } as const;

/** The grid row of a latitude and the column of a longitude (a square's number is row * rowStride + column). */
const rowOf = (latitude: number): number => Math.floor((latitude + 90) / GEO_CELL.latitudeDegrees);
const columnOf = (longitude: number): number => Math.floor((longitude + 180) / GEO_CELL.longitudeDegrees);

/** The SQL of a point's square (the generated column's expression). */
export function geoCellSql(latitude: string, longitude: string): string {
  const { latitudeDegrees, longitudeDegrees, rowStride } = GEO_CELL;
  return `floor((${latitude} + 90) / ${latitudeDegrees})::integer * ${rowStride} + floor((${longitude} + 180) / ${longitudeDegrees})::integer`;
}

/** A radius covering more squares than this is walked as a whole, newest first (it holds many listings). */
export const MAX_WALKED_CELLS = 100;
/** Past this many squares a radius is searched without the grid: it holds listings enough to be met soon by any walk. */
const MAX_CELLS = 2_500;

export interface Bounds {
  south: number;
  north: number;
  west: number;
  east: number;
}

/**
 * A box of latitudes and longitudes holding a circle, a little generously; undefined when it would
 * cross a pole or the antimeridian.
 */
export function boundsAround(latitude: number, longitude: number, miles: number): Bounds | undefined {
  const dLat = (miles / MILES_PER_DEGREE.latitude) * MARGIN;
  const south = latitude - dLat;
  const north = latitude + dLat;
  if (south <= -89 || north >= 89) return undefined;
  const widest = Math.cos((Math.max(Math.abs(south), Math.abs(north)) * Math.PI) / 180);
  const dLon = (miles / (MILES_PER_DEGREE.longitudeAtEquator * widest)) * MARGIN;
  const west = longitude - dLon;
  const east = longitude + dLon;
  if (west < -180 || east >= 180) return undefined;
  return { south, north, west, east };
}

/**
 * The grid squares within `miles` of a point, nearest first, among those its box touches (a square
 * in the box's corner may lie wholly outside the circle); undefined when the box touches more than
 * MAX_CELLS.
 */
export function cellsWithin(latitude: number, longitude: number, miles: number, box: Bounds): number[] | undefined {
  const { south, north, west, east } = box;
  const { latitudeDegrees: height, longitudeDegrees: width, rowStride } = GEO_CELL;
  if ((rowOf(north) - rowOf(south) + 1) * (columnOf(east) - columnOf(west) + 1) > MAX_CELLS) return undefined;
  const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);
  const cells: Array<{ cell: number; metres: number }> = [];
  for (let r = rowOf(south); r <= rowOf(north); r++) {
    for (let c = columnOf(west); c <= columnOf(east); c++) {
      // The square's point nearest the centre (its edges are lines of latitude and longitude).
      const lat = clamp(latitude, r * height - 90, (r + 1) * height - 90);
      const lon = clamp(longitude, c * width - 180, (c + 1) * width - 180);
      const metres = metresBetween(latitude, longitude, lat, lon);
      if (metres <= miles * METRES_PER_MILE * 1.001 + 1) cells.push({ cell: r * rowStride + c, metres });
    }
  }
  return cells.sort((a, b) => a.metres - b.metres).map(({ cell }) => cell);
}

/**
 * Of these squares, the ones lying wholly within `miles` of a point: each of their corners is (the
 * farthest point of a square bounded by parallels and meridians is one of its corners), with a
 * little to spare against rounding.
 */
export function cellsWhollyWithin(latitude: number, longitude: number, miles: number, cells: readonly number[]): number[] {
  const { latitudeDegrees: height, longitudeDegrees: width, rowStride } = GEO_CELL;
  const reach = miles * METRES_PER_MILE * 0.999;
  return cells.filter((cell) => {
    const south = Math.floor(cell / rowStride) * height - 90;
    const west = (cell % rowStride) * width - 180;
    return [south, south + height].every((lat) =>
      [west, west + width].every((lon) => metresBetween(latitude, longitude, lat, lon) <= reach),
    );
  });
}

/**
 * A box's rows of grid squares, each as the range of square numbers between its west and east
 * edges, the row nearest `latitude` first: for a radius too wide to list its squares.
 */
export function rowsWithin(latitude: number, box: Bounds): Array<{ low: number; high: number }> {
  const { rowStride } = GEO_CELL;
  const west = columnOf(box.west);
  const east = columnOf(box.east);
  const rows: number[] = [];
  for (let r = rowOf(box.south); r <= rowOf(box.north); r++) rows.push(r);
  const centre = rowOf(latitude);
  return rows
    .sort((a, b) => Math.abs(a - centre) - Math.abs(b - centre))
    .map((r) => ({ low: r * rowStride + west, high: r * rowStride + east }));
}

/**
 * The lowest and highest square numbers of a box (its south-west and north-east squares): every
 * square of the box is between them (and others, of the rows' other longitudes), so a radius too
 * wide to list its squares still reads the grid index from the box's first row to its last only.
 */
export function cellRange(box: Bounds): { low: number; high: number } {
  const { rowStride } = GEO_CELL;
  return { low: rowOf(box.south) * rowStride + columnOf(box.west), high: rowOf(box.north) * rowStride + columnOf(box.east) };
}

/** Great-circle distance on earthdistance's sphere: the same sum as the radius filter's SQL. */
function metresBetween(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const a =
    Math.sin(radians(lat2 - lat1) / 2) ** 2 + Math.cos(radians(lat1)) * Math.cos(radians(lat2)) * Math.sin(radians(lon2 - lon1) / 2) ** 2;
  return 2 * EARTH_RADIUS_METRES * Math.asin(Math.sqrt(a));
}
