"""gPodder's own sync library, mygpoclient (Debian's python3-mygpoclient), driven against a real
Earshot: run by Tests/e2e/test_sync.py, inside the LAN test's network namespace
(`ip netns exec NS python sync_client.py …`) so the server sees a phone on the LAN, not the host.
Prints one JSON object per line: what each call returned, or the exception it raised.

  sync_client.py ROOT USER PASSWORD STEP…

Steps: register DEVICE · devices · pull DEVICE SINCE · add DEVICE URL · remove DEVICE URL ·
upload PODCAST EPISODE POSITION TOTAL [TIMESTAMP] · download SINCE · simple-get DEVICE ·
simple-roundtrip DEVICE
"""

import json
import sys

# mygpoclient is a Debian package (python3-mygpoclient), not in the tests' venv: the same Python 3.
sys.path.append("/usr/lib/python3/dist-packages")
from mygpoclient import api, http  # noqa: E402


def emit(step, **values):
    print(json.dumps({"step": step, **values}), flush=True)


def main(argv):
    root, user, password, *steps = argv
    client = api.MygPodderClient(user, password, root)
    while steps:
        step = steps.pop(0)
        try:
            if step == "register":
                emit(step, ok=client.update_device_settings(steps.pop(0), "Phone on the LAN", "mobile"))
            elif step == "devices":
                emit(step, devices=[{"id": d.device_id, "caption": d.caption, "type": d.type, "subscriptions": d.subscriptions}
                                    for d in client.get_devices()])
            elif step == "pull":
                device, since = steps.pop(0), int(steps.pop(0))
                changes = client.pull_subscriptions(device, since)
                emit(step, add=changes.add, remove=changes.remove, since=changes.since)
            elif step in ("add", "remove"):
                device, url = steps.pop(0), steps.pop(0)
                result = client.update_subscriptions(device, [url] if step == "add" else [], [url] if step == "remove" else [])
                emit(step, since=result.since, update_urls=[list(pair) for pair in result.update_urls])
            elif step == "upload":
                podcast, episode, position, total = steps.pop(0), steps.pop(0), int(steps.pop(0)), int(steps.pop(0))
                timestamp = steps.pop(0) if steps and steps[0][:2] == "20" else None
                action = api.EpisodeAction(podcast, episode, "play", device="pixel", timestamp=timestamp,
                                           started=0, position=position, total=total)
                emit(step, since=client.upload_episode_actions([action]))
            elif step == "download":
                changes = client.download_episode_actions(int(steps.pop(0)))
                emit(step, actions=[a.to_dictionary() for a in changes.actions], since=changes.since)
            elif step == "simple-get":
                emit(step, urls=client.get_subscriptions(steps.pop(0)))
            elif step == "simple-roundtrip":
                device = steps.pop(0)
                emit(step, ok=client.put_subscriptions(device, client.get_subscriptions(device)))
            else:
                emit(step, error=f"unknown step {step}")
        except http.Unauthorized:
            emit(step, error="Unauthorized")
        except Exception as error:  # what the library raised, for the test to show
            emit(step, error=f"{type(error).__name__}: {error}")


if __name__ == "__main__":
    main(sys.argv[1:])
