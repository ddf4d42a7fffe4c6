/// Where a live notification is shown: the server instance (its unique bus name) and the id it
/// gave. Ids are unique per server instance only: they start again at 1 when a server restarts.
struct ServerKey: Hashable, Sendable {
    let server: String
    let id: UInt32
}
