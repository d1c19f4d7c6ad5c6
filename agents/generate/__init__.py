"""The generate policy: operators written anew from spec and reference through the tile DSL."""
