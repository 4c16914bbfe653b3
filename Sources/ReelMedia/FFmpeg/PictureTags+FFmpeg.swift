import CFFmpeg

// The picture tags (Values/) as FFmpeg writes them on its frames, and as libswscale takes
// them: the one place they meet FFmpeg's enums.

extension PixelFormat {
    package init(_ f: AVPixelFormat) {
        switch f {
        case AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P: self = .yuv420p
        case AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUVJ422P: self = .yuv422p
        case AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUVJ444P: self = .yuv444p
        case AV_PIX_FMT_YUV420P10LE: self = .yuv420p10
        case AV_PIX_FMT_YUV422P10LE: self = .yuv422p10
        case AV_PIX_FMT_YUV444P10LE: self = .yuv444p10
        case AV_PIX_FMT_NV12: self = .nv12
        case AV_PIX_FMT_P010LE: self = .p010
        case AV_PIX_FMT_GRAY8: self = .gray8
        case AV_PIX_FMT_RGB24: self = .rgb24
        case AV_PIX_FMT_RGBA: self = .rgba
        case AV_PIX_FMT_BGRA: self = .bgra
        default:
            self = .other(av_get_pix_fmt_name(f).map { String(cString: $0) } ?? "unknown")
        }
    }
}

extension ColorMatrix {
    /// Unspecified matrices follow the common convention: HD and larger is BT.709, SD is BT.601.
    package init(_ space: AVColorSpace, height: Int) {
        switch space {
        case AVCOL_SPC_BT709: self = .bt709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M, AVCOL_SPC_FCC, AVCOL_SPC_SMPTE240M: self = .bt601
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: self = .bt2020
        default: self = height >= 720 ? .bt709 : .bt601
        }
    }

    package var swsColorspace: Int32 {
        switch self {
        case .bt601: SWS_CS_ITU601
        case .bt709: SWS_CS_ITU709
        case .bt2020: SWS_CS_BT2020
        }
    }
}

extension ColorRange {
    package init(_ range: AVColorRange, format: AVPixelFormat) {
        switch format {
        case AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P: self = .full
        default: self = range == AVCOL_RANGE_JPEG ? .full : .limited
        }
    }
}

extension ChromaLocation {
    package init(_ location: AVChromaLocation) {
        switch location {
        case AVCHROMA_LOC_LEFT: self = .left
        case AVCHROMA_LOC_CENTER: self = .center
        case AVCHROMA_LOC_TOPLEFT: self = .topLeft
        case AVCHROMA_LOC_TOP: self = .top
        case AVCHROMA_LOC_BOTTOMLEFT: self = .bottomLeft
        case AVCHROMA_LOC_BOTTOM: self = .bottom
        default: self = .unspecified
        }
    }

    /// libswscale's `src_h_chr_pos`/`src_v_chr_pos` for this siting, when 2^`log2Horizontal`
    /// × 2^`log2Vertical` luma samples share a chroma sample.
    package func swscalePosition(log2Horizontal: Int, log2Vertical: Int) -> (horizontal: Int32, vertical: Int32) {
        func position(_ axis: AxisPosition, _ log2: Int) -> Int32 {
            Int32((axis.lumaOffset(factor: 1 << max(0, log2)) * 256).rounded())
        }
        return (position(axes.horizontal, log2Horizontal), position(axes.vertical, log2Vertical))
    }
}

extension ColorPrimaries {
    package init(_ primaries: AVColorPrimaries) {
        switch primaries {
        case AVCOL_PRI_BT709: self = .bt709
        case AVCOL_PRI_BT470M: self = .bt470m
        case AVCOL_PRI_BT470BG: self = .bt470bg
        case AVCOL_PRI_SMPTE170M: self = .smpte170m
        case AVCOL_PRI_SMPTE240M: self = .smpte240m
        case AVCOL_PRI_FILM: self = .film
        case AVCOL_PRI_BT2020: self = .bt2020
        case AVCOL_PRI_SMPTE428: self = .smpte428
        case AVCOL_PRI_SMPTE431: self = .smpte431
        case AVCOL_PRI_SMPTE432: self = .smpte432
        case AVCOL_PRI_EBU3213: self = .ebu3213
        default: self = .unspecified
        }
    }
}

extension TransferFunction {
    package init(_ transfer: AVColorTransferCharacteristic) {
        switch transfer {
        case AVCOL_TRC_BT709: self = .bt709
        case AVCOL_TRC_GAMMA22: self = .gamma22
        case AVCOL_TRC_GAMMA28: self = .gamma28
        case AVCOL_TRC_SMPTE170M: self = .smpte170m
        case AVCOL_TRC_SMPTE240M: self = .smpte240m
        case AVCOL_TRC_LINEAR: self = .linear
        case AVCOL_TRC_LOG: self = .log100
        case AVCOL_TRC_LOG_SQRT: self = .log316
        case AVCOL_TRC_IEC61966_2_4: self = .iec61966_2_4
        case AVCOL_TRC_BT1361_ECG: self = .bt1361e
        case AVCOL_TRC_IEC61966_2_1: self = .srgb
        case AVCOL_TRC_BT2020_10: self = .bt2020_10
        case AVCOL_TRC_BT2020_12: self = .bt2020_12
        case AVCOL_TRC_SMPTE2084: self = .pq
        case AVCOL_TRC_SMPTE428: self = .smpte428
        case AVCOL_TRC_ARIB_STD_B67: self = .hlg
        default: self = .unspecified
        }
    }
}

extension FieldOrder {
    package init(_ order: AVFieldOrder) {
        switch order {
        case AV_FIELD_PROGRESSIVE: self = .progressive
        case AV_FIELD_TT: self = .tt
        case AV_FIELD_BB: self = .bb
        case AV_FIELD_TB: self = .tb
        case AV_FIELD_BT: self = .bt
        default: self = .unknown
        }
    }
}

extension HDRMetadata {
    /// What FFmpeg's two side-data records say; nil when neither says anything.
    package init?(mastering: UnsafePointer<AVMasteringDisplayMetadata>?, light: UnsafePointer<AVContentLightMetadata>?) {
        func value(_ q: AVRational) -> Double? { q.den != 0 ? av_q2d(q) : nil }
        func point(_ xy: (AVRational, AVRational)) -> Chromaticity? {
            guard let x = value(xy.0), let y = value(xy.1), y > 0 else { return nil }
            return Chromaticity(x: x, y: y)
        }
        var result = HDRMetadata()
        if let m = mastering?.pointee, m.has_primaries != 0 || m.has_luminance != 0 {
            var display = Mastering()
            if m.has_primaries != 0 {
                display.red = point(m.display_primaries.0)
                display.green = point(m.display_primaries.1)
                display.blue = point(m.display_primaries.2)
                display.white = point(m.white_point)
            }
            if m.has_luminance != 0 {
                display.minLuminance = value(m.min_luminance)
                display.maxLuminance = value(m.max_luminance)
            }
            result.mastering = display
        }
        if let l = light?.pointee {
            result.maxCLL = l.MaxCLL > 0 ? Int(l.MaxCLL) : nil
            result.maxFALL = l.MaxFALL > 0 ? Int(l.MaxFALL) : nil
        }
        guard let said = result.nonEmpty else { return nil }
        self = said
    }

    /// A decoded frame's: HEVC and AV1 carry the records in every key frame's SEI/OBUs.
    package init?(frame: UnsafePointer<AVFrame>) {
        self.init(
            mastering: reel_frame_side_data(frame, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA,
                                            MemoryLayout<AVMasteringDisplayMetadata>.size)?
                .assumingMemoryBound(to: AVMasteringDisplayMetadata.self),
            light: reel_frame_side_data(frame, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL,
                                        MemoryLayout<AVContentLightMetadata>.size)?
                .assumingMemoryBound(to: AVContentLightMetadata.self))
    }

    /// A stream's, from its container (MP4 `mdcv`/`clli`, Matroska's colour elements).
    package init?(stream: UnsafePointer<AVStream>) {
        self.init(
            mastering: reel_stream_side_data(stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA,
                                             MemoryLayout<AVMasteringDisplayMetadata>.size)?
                .assumingMemoryBound(to: AVMasteringDisplayMetadata.self),
            light: reel_stream_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL,
                                         MemoryLayout<AVContentLightMetadata>.size)?
                .assumingMemoryBound(to: AVContentLightMetadata.self))
    }
}

extension DolbyVision {
    /// A stream's configuration record, when it has one.
    package init?(stream: UnsafePointer<AVStream>) {
        guard let record = reel_stream_side_data(stream, AV_PKT_DATA_DOVI_CONF,
                                                 MemoryLayout<AVDOVIDecoderConfigurationRecord>.size)?
            .assumingMemoryBound(to: AVDOVIDecoderConfigurationRecord.self).pointee else { return nil }
        self.init(profile: Int(record.dv_profile), level: Int(record.dv_level), hasRPU: record.rpu_present_flag != 0,
                  hasEnhancementLayer: record.el_present_flag != 0, hasBaseLayer: record.bl_present_flag != 0,
                  compatibility: Int(record.dv_bl_signal_compatibility_id))
    }
}
