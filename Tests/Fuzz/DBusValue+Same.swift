import DBus

extension DBusValue {
    /// Whether the two values are the same, doubles by bit pattern (and any NaN as any other):
    /// `==` takes a NaN for unequal to itself, so a value with one would never read back equal.
    func isSame(as other: DBusValue) -> Bool {
        switch (self, other) {
        case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
        case (.array(let a, let x), .array(let b, let y)): return a == b && x.count == y.count && zip(x, y).allSatisfy { $0.isSame(as: $1) }
        case (.structure(let x), .structure(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0.isSame(as: $1) }
        case (.dictionary(let k, let v, let x), .dictionary(let l, let w, let y)):
            return k == l && v == w && x.count == y.count && zip(x, y).allSatisfy { $0.key.isSame(as: $1.key) && $0.value.isSame(as: $1.value) }
        case (.variant(let a), .variant(let b)): return a.isSame(as: b)
        default: return self == other
        }
    }
}
