import Foundation

/// Archives an object with secure coding and reads it back as the given class.
func secureCodingRoundTrip<Object: NSObject & NSSecureCoding>(_ object: Object, as type: Object.Type = Object.self) throws -> Object? {
    let data = try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true)
    return try NSKeyedUnarchiver.unarchivedObject(ofClass: type, from: data)
}

/// Encodes a snapshot record to JSON and decodes it again, as the center's store does.
func jsonRoundTrip<Snapshot: Codable>(_ snapshot: Snapshot) throws -> Snapshot {
    try JSONDecoder().decode(Snapshot.self, from: JSONEncoder().encode(snapshot))
}
