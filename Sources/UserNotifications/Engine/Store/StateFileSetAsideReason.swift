/// Why a state file could not be trusted and was moved aside at load.
package enum StateFileSetAsideReason: Error, Hashable, Sendable {
    /// The file has no bytes at all, as after a power loss between writing and flushing.
    case empty

    /// The file is not valid JSON for the expected value, for instance because it is truncated.
    case undecodable(detail: String)

    /// The file was written by newer code, in a format this code does not understand.
    case newerFormatVersion(found: Int, understood: Int)

    /// Something other than a file is in its place: a folder, a FIFO, a socket or a device.
    case notARegularFile
}
