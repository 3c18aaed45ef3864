"""fairtable's sans-IO protocol layer: wire codec, identities, signed envelopes, transcripts.

Nothing here touches a socket, a clock, a thread or the file system: values and bytes go
in, values and bytes come out, so the live node and the offline verifier share every line.
"""
