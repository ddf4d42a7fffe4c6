import DBus

/// Reads a GeoClue2 `org.freedesktop.GeoClue2.Location` object's properties (the `a{sv}` of
/// `Properties.GetAll`): outside input, from a system-bus peer.
///
/// Only `Latitude`, `Longitude` and `Accuracy` are read, each a `d`; anything else in the
/// dictionary is ignored. A missing or mistyped value, or a value that is not finite or out
/// of range (``LocationFix/init(latitude:longitude:accuracy:)``), is refused with the reason,
/// which the caller logs; nothing here traps.
package enum GeoClueLocationReading {
    /// Why a Location object's properties were refused.
    package enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        case missing(String)
        case mistyped(String, found: String)
        case outOfRange(latitude: Double, longitude: Double, accuracy: Double)

        package var description: String {
            switch self {
            case .missing(let name): "no \(name)"
            case .mistyped(let name, let found): "\(name) is a \(found), not a double"
            case .outOfRange(let latitude, let longitude, let accuracy):
                "latitude \(latitude), longitude \(longitude), accuracy \(accuracy) are not a valid position"
            }
        }
    }

    /// The fix the properties describe.
    package static func fix(from properties: [String: DBusValue]) -> Result<LocationFix, Problem> {
        func double(_ name: String) -> Result<Double, Problem> {
            guard let value = properties[name] else { return .failure(.missing(name)) }
            guard case .double(let number) = value else { return .failure(.mistyped(name, found: value.type.signature)) }
            return .success(number)
        }
        let latitude: Double, longitude: Double, accuracy: Double
        switch (double("Latitude"), double("Longitude"), double("Accuracy")) {
        case (.success(let a), .success(let b), .success(let c)): (latitude, longitude, accuracy) = (a, b, c)
        case (.failure(let problem), _, _), (_, .failure(let problem), _), (_, _, .failure(let problem)): return .failure(problem)
        }
        guard let fix = LocationFix(latitude: latitude, longitude: longitude, accuracy: accuracy) else {
            return .failure(.outOfRange(latitude: latitude, longitude: longitude, accuracy: accuracy))
        }
        return .success(fix)
    }

    /// The fix in a `GetAll` reply body (`a{sv}`), or why there is none.
    package static func fix(fromReplyBody body: [DBusValue]) -> Result<LocationFix, Problem> {
        guard body.count == 1, let properties = body[0].variantDictionaryValue else {
            return .failure(.mistyped("the reply", found: body.map(\.type.signature).joined()))
        }
        return fix(from: properties)
    }
}
