import { NtfyTopic, type PushDevice, PushDevices, PushDevice as PushDeviceReply, type PushSubscriptionBody, VapidPublicKey } from '../../../../contract/notify.ts';
import { api, emptyCall, jsonCall } from '../../api/api.ts';

export const noticesApi = api.injectEndpoints({
  endpoints: (build) => ({
    pushDevices: build.query<PushDevice[], void>({
      query: () => jsonCall('/api/notify/push-subscriptions', PushDevices),
      providesTags: ['NoticeChannels'],
    }),
    vapidPublicKey: build.query<VapidPublicKey, void>({
      query: () => jsonCall('/api/notify/vapid-public-key', VapidPublicKey),
    }),
    addPushDevice: build.mutation<PushDevice, PushSubscriptionBody>({
      query: (body) => jsonCall('/api/notify/push-subscriptions', PushDeviceReply, { method: 'POST', body }),
      invalidatesTags: ['NoticeChannels'],
    }),
    removePushDevice: build.mutation<null, string>({
      query: (id) => emptyCall(`/api/notify/push-subscriptions/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      invalidatesTags: ['NoticeChannels'],
    }),
    ntfyTopic: build.query<NtfyTopic, void>({
      query: () => jsonCall('/api/notify/ntfy', NtfyTopic),
      providesTags: ['NoticeChannels'],
    }),
    setNtfyTopic: build.mutation<NtfyTopic, NtfyTopic>({
      query: (body) => jsonCall('/api/notify/ntfy', NtfyTopic, { method: 'PUT', body }),
      invalidatesTags: ['NoticeChannels'],
    }),
    testNtfy: build.mutation<null, void>({
      query: () => emptyCall('/api/notify/ntfy/test', { method: 'POST' }),
    }),
  }),
});

export const {
  usePushDevicesQuery,
  useLazyVapidPublicKeyQuery,
  useAddPushDeviceMutation,
  useRemovePushDeviceMutation,
  useNtfyTopicQuery,
  useSetNtfyTopicMutation,
  useTestNtfyMutation,
} = noticesApi;
