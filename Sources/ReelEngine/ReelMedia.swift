// The media layer below the engine (Sources/ReelMedia): its values and pictures are the
// engine's own vocabulary, so every module that imports ReelEngine sees them too.
@_exported import ReelMedia
