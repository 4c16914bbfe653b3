import CFFmpeg

/// Reads and builds FFmpeg's AVDictionary. Threading: use from one thread.
package enum AVDictionaryReader {
    package static func entries(_ dict: OpaquePointer?) -> [String: String] {
        var result: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while true {
            entry = av_dict_get(dict, "", entry, AV_DICT_IGNORE_SUFFIX)
            guard let e = entry else { break }
            result[String(cString: e.pointee.key)] = String(cString: e.pointee.value)
        }
        return result
    }

    package static func value(_ dict: OpaquePointer?, _ key: String) -> String? {
        guard let e = av_dict_get(dict, key, nil, 0) else { return nil }
        return String(cString: e.pointee.value)
    }
}

/// An owned option dictionary handed to FFmpeg open calls; frees what FFmpeg did not consume.
package final class AVOptions {
    package var pointer: OpaquePointer? = nil
    package init(_ options: [String: String] = [:]) {
        for (key, value) in options { set(key, value) }
    }
    package func set(_ key: String, _ value: String) { av_dict_set(&pointer, key, value, 0) }
    deinit { av_dict_free(&pointer) }
}
