import Foundation

/// A program run to its end, its output caught in files of `folder` (no pipe to fill up).
struct Run {
    let status: Int32
    let standardOutput: String
    let standardError: String

    init(_ executable: URL, _ arguments: [String], in folder: URL) throws {
        let name = UUID().uuidString
        let out = folder.appendingPathComponent("\(name).out"), err = folder.appendingPathComponent("\(name).err")
        try Data().write(to: out)
        try Data().write(to: err)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        status = process.terminationStatus
        standardOutput = try String(contentsOf: out, encoding: .utf8)
        standardError = try String(contentsOf: err, encoding: .utf8)
    }
}
