/// The session's picture as the seek coordinator sees it.
/// Threading: control thread, like every other command to the session.
extension Session: SeekablePicture {
    var shown: (pts: Double, duration: Double)? {
        presentation?.currentFrame.map { ($0.pts, $0.duration) }
    }

    func withinReach(_ request: SeekRequest) -> WithinReach {
        switch seekWithinReach(request) {
        case .landed: .landed
        case .retargeted: .retargeted
        case .miss: .miss
        }
    }

    func stepForward() -> Double? { presentation?.step()?.pts }

    func stepBack() -> Double? { presentation?.stepBack()?.pts }

    var decodedToEnd: Bool { frameQueue?.reachedEnd == true && frameQueue?.count == 0 }
}
