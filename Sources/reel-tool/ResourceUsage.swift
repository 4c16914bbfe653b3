import CLinux
import Foundation

/// This process's memory, for `play`'s ticks and summary. Threading: any thread.
enum ResourceUsage {
    /// Resident set size now, in MiB (from /proc/self/statm).
    static var residentMB: Double? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return nil }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }

    /// Memory the allocator has handed out and not had back, in MiB: what a leak grows, without
    /// the free pages glibc keeps in its arenas (RSS counts those, and steps up when contention
    /// on a loaded machine makes it open another arena).
    static var heapInUseMB: Double { Double(reel_heap_in_use()) / 1_048_576 }

    /// The highest resident set size so far, in MiB.
    static var peakResidentMB: Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_maxrss) / 1024
    }
}
