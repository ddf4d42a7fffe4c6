import Foundation
import Testing
import UserNotificationsTesting

@Suite("ToolRequirement: run-time libraries and data files")
struct LibraryRequirementTests {
    @Test("an installed library is found; a missing one fails naming its package")
    func sharedLibraries() throws {
        #expect(ToolRequirement.hasSharedLibrary("libc.so.6"))
        try ToolRequirement.requireSharedLibrary("libc.so.6", package: "libc6")
        #expect(!ToolRequirement.hasSharedLibrary("libdesktopnotifications-missing.so.0"))
        #expect(ToolRequirement.canRun(needingLibrary: "libc.so.6"))
        let error = #expect(throws: MissingToolError.self) {
            try ToolRequirement.requireSharedLibrary("libdesktopnotifications-missing.so.0", package: "no-such-package")
        }
        #expect(error?.description.contains("Debian package `no-such-package`") == true)
        #expect(error?.description.contains("make deps") == true)
    }

    @Test("a missing library's tests run (and fail) exactly when tools are required")
    func requiredOrStandDown() {
        let missing = "libdesktopnotifications-missing.so.0"
        #expect(ToolRequirement.canRun(needingLibrary: missing) == ToolRequirement.isRequired)
        #expect(ToolRequirement.isRequired == (ProcessInfo.processInfo.environment["DESKTOPNOTIFICATIONS_REQUIRE_TOOLS"] == "1"))
    }

    @Test("a missing data file fails naming its package")
    func dataFiles() throws {
        try ToolRequirement.requireDataFile("/", package: "base-files")
        let error = #expect(throws: MissingToolError.self) {
            try ToolRequirement.requireDataFile("/nonexistent/desktopnotifications/magic", package: "shared-mime-info")
        }
        #expect(error?.package == "shared-mime-info")
    }
}
