import Foundation
import UserNotifications

/// A response kept for an app that was not running when it came: its id, the response and
/// when it was queued.
struct QueuedResponse: Codable, Hashable, Sendable {
    var id: String
    var response: AgentStoredResponse
    var queuedAt: Date

    init(id: String, response: AgentStoredResponse, queuedAt: Date) {
        self.id = id
        self.response = response
        self.queuedAt = queuedAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, response, json, queuedAt
    }

    /// Reads a queued response; one an agent of an earlier version stored holds the response
    /// as JSON text (`json`) and is read from it.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        queuedAt = try container.decode(Date.self, forKey: .queuedAt)
        if let json = try container.decodeIfPresent(String.self, forKey: .json) {
            response = try AgentStoredResponse(json: json)
        } else {
            response = try container.decode(AgentStoredResponse.self, forKey: .response)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(response, forKey: .response)
        try container.encode(queuedAt, forKey: .queuedAt)
    }
}
