/// Value equality for `userInfo` dictionaries, whose values are `Any`: nested dictionaries and
/// arrays compare element by element, everything else through `AnyHashable`. Values that are
/// not hashable are never equal, which errs on the side of "changed".
enum UserInfoEquality {
    static func areEqual(_ lhs: [AnyHashable: Any], _ rhs: [AnyHashable: Any]) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { key, value in
            rhs[key].map { valuesAreEqual(value, $0) } ?? false
        }
    }

    static func valuesAreEqual(_ lhs: Any, _ rhs: Any) -> Bool {
        switch (lhs, rhs) {
        case let (lhs as [AnyHashable: Any], rhs as [AnyHashable: Any]):
            areEqual(lhs, rhs)
        case let (lhs as [Any], rhs as [Any]):
            lhs.count == rhs.count && zip(lhs, rhs).allSatisfy(valuesAreEqual)
        case let (lhs as AnyHashable, rhs as AnyHashable):
            lhs == rhs
        default:
            false
        }
    }
}
