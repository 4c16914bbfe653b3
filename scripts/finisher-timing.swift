import Foundation

// The CPU cost of RGBFinisher per pixel, for each kind of colour plan, on a 1280x720 picture
// of varied colours: thread CPU time, best of 15. Built by scripts/finisher-timing.sh with the
// engine's Picture/ sources, optimised as `swift build -c release` builds a module.

func cpuNanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

let width = 1280, height = 720, count = width * height
var red = [UInt16](repeating: 0, count: count), green = red, blue = red
var seed: UInt32 = 7
for y in 0..<height {
    for x in 0..<width {
        seed = seed &* 1_664_525 &+ 1_013_904_223
        let noise = Int(seed >> 22), i = y * width + x
        red[i] = UInt16(min(65535, x * 51 + noise))
        green[i] = UInt16(min(65535, y * 91 + noise))
        blue[i] = UInt16(min(65535, (x + y) * 32))
    }
}
var bgra = [UInt8](repeating: 0, count: count * 4)
let mastered = HDRMetadata(mastering: .init(minLuminance: 0.0001, maxLuminance: 1000))
let plans: [(String, TransferFunction, HDRMetadata?)] = [
    ("pq-meta", .pq, mastered), ("pq-bare", .pq, nil), ("hlg", .hlg, nil), ("bt2020-sdr", .bt2020_10, nil),
]
for (name, transfer, hdr) in plans {
    let plan = ColourPlan(transfer: transfer, primaries: .bt2020, hdr: hdr)!
    let start = cpuNanoseconds()
    let finisher = RGBFinisher(plan: plan)
    let tables = Double(cpuNanoseconds() - start) / 1e6
    var best = Double.infinity
    for _ in 0..<15 {
        let t0 = cpuNanoseconds()
        red.withUnsafeBufferPointer { r in
            green.withUnsafeBufferPointer { g in
                blue.withUnsafeBufferPointer { b in
                    bgra.withUnsafeMutableBufferPointer { out in
                        finisher.finish(red: r.baseAddress!, green: g.baseAddress!, blue: b.baseAddress!,
                                        sourceStride: width, into: out.baseAddress!, targetStride: width * 4,
                                        width: width, height: height)
                    }
                }
            }
        }
        best = min(best, Double(cpuNanoseconds() - t0) / Double(count))
    }
    print(String(format: "%@ (%@): %.1f ns/px, tables %.1f ms", name, plan.mode.rawValue, best, tables))
}

// The equalizer's stage on SDR pictures: its map of R′G′B′ in place, then the pack through the
// gamma (what replaces libswscale's plain pack while the equalizer is not neutral).
let equalizer = Equalizer(contrast: 20, brightness: 5, gamma: 10, saturation: -20, hue: 10)
let stage = EqualizerStage(equalizer, matrix: .bt709)
var best = (adjust: Double.infinity, pack: Double.infinity)
for _ in 0..<15 {
    var r = red, g = green, b = blue
    let t0 = cpuNanoseconds()
    r.withUnsafeMutableBufferPointer { rp in
        g.withUnsafeMutableBufferPointer { gp in
            b.withUnsafeMutableBufferPointer { bp in
                stage.adjust(red: rp.baseAddress!, green: gp.baseAddress!, blue: bp.baseAddress!, stride: width,
                             width: width, height: height)
            }
        }
    }
    let t1 = cpuNanoseconds()
    bgra.withUnsafeMutableBufferPointer { out in
        stage.pack(red: r, green: g, blue: b, stride: width, into: out.baseAddress!, targetStride: width * 4,
                   width: width, height: height)
    }
    let t2 = cpuNanoseconds()
    best = (min(best.adjust, Double(t1 - t0) / Double(count)), min(best.pack, Double(t2 - t1) / Double(count)))
}
print(String(format: "equalizer (SDR): adjust %.1f ns/px, pack with gamma %.1f ns/px", best.adjust, best.pack))
