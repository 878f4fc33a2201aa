//! Static exchange evaluation (to be filled by the search layer).
