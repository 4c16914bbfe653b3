/// A 3×3 matrix of doubles, row by row: the colour steps' linear maps (primaries, crosstalk,
/// XYZ), folded together before a picture is drawn. Threading: a value type.
public struct Matrix3: Sendable, Equatable {
    public var rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)

    public init(_ r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) { rows = (r0, r1, r2) }

    public static let identity = Matrix3([1, 0, 0], [0, 1, 0], [0, 0, 1])

    /// A matrix whose columns are `c0`, `c1`, `c2`.
    public init(columns c0: SIMD3<Double>, _ c1: SIMD3<Double>, _ c2: SIMD3<Double>) {
        self.init([c0.x, c1.x, c2.x], [c0.y, c1.y, c2.y], [c0.z, c1.z, c2.z])
    }

    public static func == (l: Matrix3, r: Matrix3) -> Bool {
        l.rows.0 == r.rows.0 && l.rows.1 == r.rows.1 && l.rows.2 == r.rows.2
    }

    public static func * (m: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((m.rows.0 * v).sum(), (m.rows.1 * v).sum(), (m.rows.2 * v).sum())
    }

    public static func * (l: Matrix3, r: Matrix3) -> Matrix3 {
        let t = r.transposed
        func row(_ v: SIMD3<Double>) -> SIMD3<Double> { t * v }
        return Matrix3(row(l.rows.0), row(l.rows.1), row(l.rows.2))
    }

    public static func * (m: Matrix3, s: Double) -> Matrix3 { Matrix3(m.rows.0 * s, m.rows.1 * s, m.rows.2 * s) }

    public var transposed: Matrix3 { Matrix3(columns: rows.0, rows.1, rows.2) }

    public var determinant: Double {
        let (a, b, c) = rows
        return a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x)
    }

    /// The inverse, by cofactors (the colour matrices are far from singular).
    public var inverse: Matrix3 {
        let (a, b, c) = rows
        let d = determinant
        let c0 = SIMD3(b.y * c.z - b.z * c.y, -(b.x * c.z - b.z * c.x), b.x * c.y - b.y * c.x)
        let c1 = SIMD3(-(a.y * c.z - a.z * c.y), a.x * c.z - a.z * c.x, -(a.x * c.y - a.y * c.x))
        let c2 = SIMD3(a.y * b.z - a.z * b.y, -(a.x * b.z - a.z * b.x), a.x * b.y - a.y * b.x)
        // The adjugate is the transposed cofactor matrix: cofactor rows become columns.
        return Matrix3(c0, c1, c2).transposed * (1 / d)
    }

    /// Column by column, as a GL `mat3` uniform takes it (`transpose` false).
    public var columnMajor: [Float] {
        let t = transposed
        return [t.rows.0, t.rows.1, t.rows.2].flatMap { [Float($0.x), Float($0.y), Float($0.z)] }
    }
}
