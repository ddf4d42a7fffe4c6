import DesktopNotificationsSupport
// The model classes archive themselves through the same Codable snapshot records that the
// center persists, so there is one description of each type's stored form instead of two.

extension NSCoder {
    private static let snapshotKey = "UNSnapshotJSON"

    /// Stores a snapshot under one key. A snapshot that cannot be encoded is left out, so
    /// decoding the archive fails instead of producing a half-restored object.
    func encodeSnapshot(_ snapshot: some Encodable) {
        guard let json = try? JSONEncoder().encode(snapshot) else { return }
        encode(NSData(data: json), forKey: Self.snapshotKey)
    }

    /// Reads back a snapshot stored by ``encodeSnapshot(_:)``, or `nil` when it is missing or damaged.
    func decodeSnapshot<Snapshot: Decodable>(_ type: Snapshot.Type) -> Snapshot? {
        guard let json = decodeObject(of: NSData.self, forKey: Self.snapshotKey) else { return nil }
        return try? OutsideJSON.decode(type, from: Data(referencing: json))
    }
}
