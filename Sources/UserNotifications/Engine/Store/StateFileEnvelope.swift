import DesktopNotificationsSupport
import Foundation

/// What a state file holds: the value, the version of its format, and when it was saved.
///
/// ```json
/// {"formatVersion":1,"savedAt":"2026-03-14T12:05:01.123Z","value":{...}}
/// ```
struct StateFileEnvelope<Value: Codable>: Codable {
    let formatVersion: Int
    /// ISO 8601, UTC, with milliseconds. A string, so the value's own dates keep the encoder's
    /// exact default form.
    let savedAt: String
    let value: Value

    /// The first thing read from a file: its format version alone, so that a file from newer
    /// code is recognised even when its value would not decode.
    private struct Header: Decodable {
        let formatVersion: Int
    }

    /// The JSON bytes of `value`, keys sorted; an engine's state through
    /// ``EngineStateJSONWriter``, which writes the same bytes faster.
    static func encode(_ value: Value, formatVersion: Int, savedAt: Date) throws -> Data {
        if let state = value as? EngineState {
            return try EngineStateJSONWriter.envelope(state, formatVersion: formatVersion, savedAt: savedAt)
        }
        return try encodeWhole(value, formatVersion: formatVersion, savedAt: savedAt)
    }

    /// The JSON bytes of `value`, keys sorted, all written by `JSONEncoder`.
    static func encodeWhole(_ value: Value, formatVersion: Int, savedAt: Date) throws -> Data {
        let envelope = StateFileEnvelope(
            formatVersion: formatVersion,
            savedAt: savedAt.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
            value: value
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(envelope)
    }

    /// The value in `data`, or why it cannot be trusted.
    static func decode(_ data: Data, understanding formatVersion: Int) -> Result<Value, StateFileSetAsideReason> {
        guard !data.isEmpty else { return .failure(.empty) }
        let decoder = JSONDecoder()
        do {
            let header = try OutsideJSON.decode(Header.self, from: data, with: decoder)
            guard header.formatVersion <= formatVersion else {
                return .failure(.newerFormatVersion(found: header.formatVersion, understood: formatVersion))
            }
            // Checked for depth once, above.
            return .success(try decoder.decode(StateFileEnvelope.self, from: data).value)
        } catch {
            return .failure(.undecodable(detail: String(describing: error)))
        }
    }
}
