import AuditCommandLine
import Foundation

// The whole command line lives in AuditCommandLine, where the tests can reach it.
let result = await BGTaskAudit.run(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(result.standardOutput.utf8))
FileHandle.standardError.write(Data(result.standardError.utf8))
exit(result.exitStatus)
