# Generated from proto/svc.proto by clients/python/scripts/generate_proto.py. DO NOT EDIT.
# Regenerate with `python scripts/generate_proto.py`; test.sh fails when this file is stale.
"""Protobuf messages and gRPC stubs of the svc service (generated)."""
