import DesktopNotificationsSupport
import Foundation

/// What an app keeps for remote notifications, in `push.json` beside its notification state
/// (mode 0600, replaced whole so that a crash leaves the old file or the new one): its Web
/// Push keys, its UnifiedPush connection token, the distributor it chose and the endpoint it
/// was given.
package struct RemotePushRecord: Codable, Sendable, Equatable {
    /// The file's name in the state folder.
    package static let fileName = "push.json"
    /// The largest file read; a real one is under 1 KiB.
    package static let maximumFileSize = 16 * 1024

    /// The P-256 private scalar, base64url.
    package var privateKey: String
    /// The 16-byte authentication secret, base64url.
    package var authSecret: String
    /// The connection token (UnifiedPush: random, at most 100 bytes).
    package var token: String
    /// The distributor's bus name, once chosen.
    package var distributor: String?
    /// The endpoint, once given.
    package var endpoint: String?

    /// A new record with new keys and a new token.
    package static func fresh() -> RemotePushRecord {
        let keys = WebPushKeys.generate()
        return RemotePushRecord(
            privateKey: Base64URL.encode(keys.rawPrivateKey), authSecret: keys.auth,
            token: UUID().uuidString.lowercased())
    }

    /// The keys the record holds.
    ///
    /// - Throws: ``RemotePushStoreError/corrupt(path:detail:)`` when they do not decode.
    package func keys(path: String) throws(RemotePushStoreError) -> WebPushKeys {
        guard let scalar = Base64URL.decode(privateKey), let secret = Base64URL.decode(authSecret) else {
            throw .corrupt(path: path, detail: "the keys are not base64url")
        }
        do {
            return try WebPushKeys(rawPrivateKey: scalar, authSecret: secret)
        } catch {
            throw .corrupt(path: path, detail: "\(error)")
        }
    }

    /// Reads the record in `folder`, or makes and saves a new one when there is none.
    ///
    /// - Throws: ``RemotePushStoreError``.
    package static func loadOrCreate(in folder: URL) throws(RemotePushStoreError) -> RemotePushRecord {
        let path = folder.appendingPathComponent(fileName).path
        if let existing = try load(path: path) { return existing }
        let record = fresh()
        try record.save(in: folder)
        return record
    }

    /// The record at `path`, or `nil` when there is no file.
    package static func load(path: String) throws(RemotePushStoreError) -> RemotePushRecord? {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            if !FileManager.default.fileExists(atPath: path) { return nil }
            throw .unreadable(path: path, detail: "cannot open")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
        } catch {
            throw .unreadable(path: path, detail: "\(error)")
        }
        return try decode(data, path: path)
    }

    /// Reads a record from the bytes of `push.json` (`path` names it in errors): at most
    /// ``maximumFileSize`` bytes, a token of 1 to 100 bytes, keys that decode, a distributor
    /// under UnifiedPush's prefix and an endpoint that is an http(s) URL, when present.
    ///
    /// - Throws: ``RemotePushStoreError/corrupt(path:detail:)``.
    package static func decode(_ data: Data, path: String) throws(RemotePushStoreError) -> RemotePushRecord {
        guard data.count <= maximumFileSize else { throw .corrupt(path: path, detail: "over \(maximumFileSize) bytes") }
        let record: RemotePushRecord
        do {
            record = try OutsideJSON.decode(RemotePushRecord.self, from: data)
        } catch {
            throw .corrupt(path: path, detail: "\(error)")
        }
        guard !record.token.isEmpty, record.token.utf8.count <= UnifiedPush.maximumTokenLength else {
            throw .corrupt(path: path, detail: "bad token")
        }
        if let distributor = record.distributor {
            guard distributor.hasPrefix(UnifiedPush.distributorNamePrefix), distributor.utf8.count <= 255 else {
                throw .corrupt(path: path, detail: "bad distributor")
            }
        }
        if let endpoint = record.endpoint {
            guard UnifiedPushConnector.isValidEndpoint(endpoint) else { throw .corrupt(path: path, detail: "bad endpoint") }
        }
        _ = try record.keys(path: path)
        return record
    }

    /// Saves the record in `folder` (created 0700 when missing), mode 0600.
    ///
    /// - Throws: ``RemotePushStoreError/unwritable(path:detail:)``.
    package func save(in folder: URL) throws(RemotePushStoreError) {
        let path = folder.appendingPathComponent(Self.fileName).path
        do {
            try PrivateStorage.prepareFolder(folder.path)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try PrivateStorage.writeFile(try encoder.encode(self), to: path)
        } catch {
            throw .unwritable(path: path, detail: "\(error)")
        }
    }
}
